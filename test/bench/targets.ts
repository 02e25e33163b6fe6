/**
 * The figures of `bench-summary`, per mode, with the target each is held to: the names and the
 * targets the report, the summary line and the chart share.
 */

export type Mode = "standalone" | "distributed";

export interface ModeSummary {
  pingPerExpress: number;
  templatesPerPing: number;
  createSendPerPing: number;
  createSendP50Ms: number;
  createSendP99Ms: number;
  uploadPerStore: number;
  downloadPerStore: number;
  uploadGrowthMiB: number;
  firstStartS: number;
  restartS?: number;
  idleRssMiB: number;
  idleRssAfterRestartMiB?: number;
}

export type BenchSummary = Partial<Record<Mode, ModeSummary>>;

export interface Target {
  figure: keyof ModeSummary;
  label: string;
  /** At least (higher is better) or at most (lower is better) this; undefined: no target in that mode. */
  bound(mode: Mode, figures: ModeSummary): number | undefined;
  better: "higher" | "lower";
}

export const TARGETS: Target[] = [
  { figure: "pingPerExpress", label: "ping ÷ bare Express", bound: () => 0.6, better: "higher" },
  { figure: "templatesPerPing", label: "templates page ÷ ping", bound: () => 0.4, better: "higher" },
  {
    figure: "createSendPerPing",
    label: "create-and-send ÷ ping",
    bound: (mode) => (mode === "standalone" ? 0.04 : 0.08),
    better: "higher",
  },
  {
    figure: "createSendP99Ms",
    label: "create-and-send p99 (ms)",
    // Standalone runs everything on one core: fairness there is a p99 within 3 × the median.
    bound: (mode, f) => (mode === "standalone" ? 3 * f.createSendP50Ms : 150),
    better: "lower",
  },
  { figure: "uploadPerStore", label: "10 MiB upload ÷ blob store", bound: () => 0.6, better: "higher" },
  { figure: "downloadPerStore", label: "10 MiB download ÷ blob store", bound: () => 0.6, better: "higher" },
  { figure: "uploadGrowthMiB", label: "growth in a 25 MiB upload (MiB)", bound: () => 16, better: "lower" },
  {
    figure: "firstStartS",
    label: "first start (s)",
    bound: (mode) => (mode === "standalone" ? 5 : undefined),
    better: "lower",
  },
  {
    figure: "restartS",
    label: "restart (s)",
    bound: (mode) => (mode === "standalone" ? 3 : undefined),
    better: "lower",
  },
  {
    figure: "idleRssMiB",
    label: "idle resident memory (MiB)",
    bound: (mode) => (mode === "standalone" ? 300 : 1024),
    better: "lower",
  },
  {
    figure: "idleRssAfterRestartMiB",
    label: "idle memory after a restart (MiB)",
    bound: (mode) => (mode === "standalone" ? 300 : undefined),
    better: "lower",
  },
];

export interface Verdict {
  mode: Mode;
  target: Target;
  value: number;
  bound: number;
  met: boolean;
  /** How far past the bound, as a ratio where 1 is the bound itself and more is better. */
  score: number;
}

/** Every figure that has a target in its mode, with whether it is met. */
export function verdicts(summary: BenchSummary): Verdict[] {
  const all: Verdict[] = [];
  for (const mode of ["standalone", "distributed"] as const) {
    const figures = summary[mode];
    if (!figures) continue;
    for (const target of TARGETS) {
      const value = figures[target.figure];
      const bound = target.bound(mode, figures);
      if (value === undefined || bound === undefined) continue;
      const score = target.better === "higher" ? value / bound : bound / Math.max(value, 1e-9);
      all.push({ mode, target, value, bound, met: score >= 1, score });
    }
  }
  return all;
}
