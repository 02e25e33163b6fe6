/**
 * Shutdown as a list of named stages, each with a deadline. Kubernetes kills a pod 30 s after
 * SIGTERM: a stage that stalls must not eat that time silently. Each stage's duration is logged;
 * one that overruns its deadline is named in a warning and left behind, and the next stage starts,
 * so the process still closes what it can (the database last) and exits.
 */
import type { Logger } from "./logger.js";

export interface ShutdownStage {
  /** What the stage stops, for the log: "gateway HTTP server", "background work". */
  name: string;
  run(): Promise<unknown>;
  /** How long the stage may take before shutdown goes on without it. */
  deadlineMs: number;
}

/** Runs the stages one after another; resolves with the names of those that overran. */
export async function shutDownInStages(logger: Logger, stages: readonly ShutdownStage[]): Promise<string[]> {
  const overran: string[] = [];
  for (const stage of stages) {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"overran">((resolve) => {
      timer = setTimeout(() => resolve("overran"), stage.deadlineMs);
    });
    const outcome = await Promise.race([
      stage.run().then(
        () => "done" as const,
        (err: unknown) => {
          logger.warn({ err, stage: stage.name }, "a shutdown stage failed; shutdown goes on");
          return "failed" as const;
        },
      ),
      deadline,
    ]);
    clearTimeout(timer);
    const ms = Math.round(performance.now() - started);
    if (outcome === "overran") {
      overran.push(stage.name);
      logger.warn(
        { stage: stage.name, deadlineMs: stage.deadlineMs },
        `shutdown stage "${stage.name}" did not finish in ${stage.deadlineMs} ms; shutdown goes on without it`,
      );
    } else logger.info({ stage: stage.name, ms }, "shutdown stage finished");
  }
  return overran;
}
