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
  /** Processor time of every process per create-and-send, offered at a fixed rate (ms). */
  cpuMsPerCreateSend: number;
  /** The p99 of create-and-send offered at a fixed rate (ms). */
  createSendP99AtRateMs: number;
  uploadPerStore: number;
  downloadPerStore: number;
  /** The gateway's share of the thinnest HTTP server in front of the same store. */
  uploadPerFloor?: number;
  downloadPerFloor?: number;
  uploadGrowthMiB: number;
  firstStartS: number;
  restartS?: number;
  idleRssMiB: number;
  idleRssAfterRestartMiB?: number;
  /**
   * Processor time per GET /v1/ping at a fixed rate with OpenTelemetry on at 10 % sampling ÷ the
   * same untraced, two deployments side by side (tracing-cost.ts).
   */
  tracedPingCpuPerUntraced?: number;
}

/**
 * Figures measured once a run rather than per mode: what a signer feels on a phone (lighthouse.ts,
 * on the standalone deployment) and completion against its floor (completion.ts, in process).
 */
export interface OnceSummary {
  signingLighthouseScore: number;
  signingLcpMs: number;
  signingTbtMs: number;
  signingJsKb: number;
  consoleLighthouseScore: number;
  /** Completion of the 10-page contract (B-B) against completion-floor.ts, p50 over p50. */
  completionPerFloor: number;
}

export type BenchSummary = Partial<Record<Mode, ModeSummary>> & Partial<OnceSummary>;

export interface Target {
  figure: keyof ModeSummary;
  label: string;
  /** At least (higher is better) or at most (lower is better) this; undefined: no target in that mode. */
  bound(mode: Mode, figures: ModeSummary): number | undefined;
  better: "higher" | "lower";
}

/** The targets of issue 36, decided on 2026-11-26 once the profiles had shown what each needs. */
export const TARGETS: Target[] = [
  { figure: "pingPerExpress", label: "ping ÷ bare Express", bound: () => 0.8, better: "higher" },
  { figure: "templatesPerPing", label: "templates page ÷ ping", bound: () => 0.8, better: "higher" },
  {
    figure: "createSendPerPing",
    label: "create-and-send ÷ ping",
    bound: (mode) => (mode === "standalone" ? 0.04 : 0.08),
    better: "higher",
  },
  {
    figure: "cpuMsPerCreateSend",
    label: "create-and-send CPU, every process (ms)",
    bound: () => 6,
    better: "lower",
  },
  {
    figure: "createSendP99AtRateMs",
    label: "create-and-send p99 at a fixed rate (ms)",
    bound: () => 100,
    better: "lower",
  },
  { figure: "uploadPerFloor", label: "10 MiB upload ÷ its floor", bound: () => 0.9, better: "higher" },
  { figure: "downloadPerFloor", label: "10 MiB download ÷ its floor", bound: () => 0.9, better: "higher" },
  { figure: "uploadGrowthMiB", label: "growth in a 25 MiB upload (MiB)", bound: () => 16, better: "lower" },
  {
    figure: "firstStartS",
    label: "first start (s)",
    bound: (mode) => (mode === "standalone" ? 3 : undefined),
    better: "lower",
  },
  {
    figure: "restartS",
    label: "restart (s)",
    bound: (mode) => (mode === "standalone" ? 2 : undefined),
    better: "lower",
  },
  {
    figure: "idleRssMiB",
    label: "idle resident memory (MiB)",
    bound: (mode) => (mode === "standalone" ? 250 : 800),
    better: "lower",
  },
  {
    figure: "tracedPingCpuPerUntraced",
    label: "ping's CPU traced at 10 % ÷ untraced",
    bound: () => 1.05,
    better: "lower",
  },
  {
    figure: "idleRssAfterRestartMiB",
    label: "idle memory after a restart (MiB)",
    bound: (mode) => (mode === "standalone" ? 250 : undefined),
    better: "lower",
  },
];

/** The targets of the figures measured once a run: one bound each. */
interface OnceTarget {
  group: "phone" | "completion";
  figure: keyof OnceSummary;
  label: string;
  bound: number;
  better: "higher" | "lower";
}

export const ONCE_TARGETS: OnceTarget[] = [
  {
    group: "phone",
    figure: "signingLighthouseScore",
    label: "signing page, Lighthouse score",
    bound: 95,
    better: "higher",
  },
  {
    group: "phone",
    figure: "signingLcpMs",
    label: "signing page, largest paint (ms)",
    bound: 2000,
    better: "lower",
  },
  {
    group: "phone",
    figure: "signingTbtMs",
    label: "signing page, blocking time (ms)",
    bound: 150,
    better: "lower",
  },
  {
    group: "phone",
    figure: "signingJsKb",
    label: "signing page, script to the first page (KB)",
    bound: 150,
    better: "lower",
  },
  {
    group: "phone",
    figure: "consoleLighthouseScore",
    label: "console log-in, Lighthouse score",
    bound: 90,
    better: "higher",
  },
  {
    group: "completion",
    figure: "completionPerFloor",
    label: "10-page completion ÷ its floor",
    bound: 1.5,
    better: "lower",
  },
];

export interface Verdict {
  /** The deployment's mode, or the group of a figure measured once a run. */
  mode: Mode | OnceTarget["group"];
  target: Pick<Target, "label" | "better">;
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
      all.push(verdict(mode, target, value, bound));
    }
  }
  for (const target of ONCE_TARGETS) {
    const value = summary[target.figure];
    if (value !== undefined) all.push(verdict(target.group, target, value, target.bound));
  }
  return all;
}

function verdict(mode: Verdict["mode"], target: Verdict["target"], value: number, bound: number): Verdict {
  const score = target.better === "higher" ? value / bound : bound / Math.max(value, 1e-9);
  return { mode, target, value, bound, met: score >= 1, score };
}
