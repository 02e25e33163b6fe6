/** Types of job-child.mjs (plain JavaScript, so that job processes' children load it without a compiler). */
export const MEMORY_BUDGET_ENV: string;
export function serveJobs(run: (job: never) => unknown): void;
