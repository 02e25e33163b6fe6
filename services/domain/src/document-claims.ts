/**
 * The holder's side of the documents service's claims: a template or request claims its documents
 * before it commits, and a process that dies in between leaves a claim nobody stands behind, which
 * would keep the document from being deleted for ever. Templates and requests each run this sweep:
 * it lists their claims older than any work in flight and releases those their own data does not
 * back (the holder is gone, or uses another document now).
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { DrainLoop, isUuid, type Logger } from "@countersign/kit";

export interface HeldClaim {
  /** The id after the holder's prefix ("request:<id>" → "<id>"). */
  holderId: string;
  documentId: string;
}

export interface ClaimSweepOptions {
  documents: Client<typeof DocumentsService>;
  /** "template:" or "request:". */
  holderPrefix: string;
  /** The documents these holders (ids, existing or not) use now, by the holder's own data. */
  uses: (holderIds: string[]) => Promise<HeldClaim[]>;
  logger: Logger;
  /** Claims younger than this may belong to work in flight and are left alone. */
  olderThanMs?: number;
  intervalMs?: number;
}

const claimKey = (claim: HeldClaim) => `${claim.holderId} ${claim.documentId}`;

export class ClaimSweep {
  private readonly loop: DrainLoop;

  constructor(private readonly options: ClaimSweepOptions) {
    this.loop = new DrainLoop(
      () =>
        this.sweep().then(
          () => {},
          (err: unknown) =>
            options.logger.warn({ err }, "document claim sweep failed; the next one tries again"),
        ),
      options.intervalMs ?? 10 * 60_000,
      { work: "document claim sweep", logger: options.logger },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Releases the claims older than `olderThanMs` that nothing backs; returns how many. */
  async sweep(olderThanMs = this.options.olderThanMs ?? 5 * 60_000): Promise<number> {
    const { documents, holderPrefix, logger } = this.options;
    const before = timestampFromMs(Date.now() - olderThanMs);
    let released = 0;
    let pageToken = "";
    do {
      const page = await documents.listClaims({
        holderPrefix,
        createTimeBefore: before,
        pageSize: 500,
        pageToken,
      });
      const claims = page.claims.map((c) => ({
        workspaceId: c.workspaceId,
        holder: c.holder,
        holderId: c.holder.slice(holderPrefix.length),
        documentId: c.documentId,
      }));
      const holderIds = [...new Set(claims.map((c) => c.holderId).filter(isUuid))];
      const backed = new Set((holderIds.length > 0 ? await this.options.uses(holderIds) : []).map(claimKey));
      for (const claim of claims) {
        if (backed.has(claimKey(claim))) continue;
        await documents.releaseDocument({
          workspaceId: claim.workspaceId,
          documentId: claim.documentId,
          holder: claim.holder,
        });
        released += 1;
        logger.info({ holder: claim.holder, documentId: claim.documentId }, "released a claim nothing uses");
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    return released;
  }
}
