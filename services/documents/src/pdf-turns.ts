/**
 * The turns of the service's PDF job processes (pdf-inspection.ts, pdf-text.ts): one file read at a
 * time (a process reads one), the workspaces in turn (the kit's FairQueue). A client uploading a
 * batch in parallel is normal (most files read in well under a second), so a workspace may have 32
 * waiting — each is a spooled file on disk, not memory — and everyone together 128.
 */
import { busyWhenFull, FairQueue } from "@countersign/kit";

const TURNS = { concurrency: 1, waitingPerParty: 32, maxWaiting: 128, retryAfterSeconds: 10 };

export class PdfTurns {
  private readonly queue = new FairQueue(TURNS);

  /** `reader` names the process in a refusal: "the PDF reader". */
  constructor(private readonly reader: string) {}

  /**
   * `task` in `party`'s turn; a caller that goes away while it waits gives its place up, and one
   * past the waiting bounds is told to come back (RESOURCE_EXHAUSTED with a retry delay).
   */
  run<T>(party: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queue
      .run(party, task, signal)
      .catch(
        busyWhenFull(
          `${this.reader} has as many files waiting as it takes (of this workspace's, or of everyone's)`,
        ),
      );
  }
}
