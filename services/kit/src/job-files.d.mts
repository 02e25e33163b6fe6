/** Types of job-files.mjs (plain JavaScript, so that job processes' children load it without a compiler). */
export function bytesToFiles(value: unknown, folder: string, written: string[]): Promise<unknown>;
export function filesToBytes(value: unknown): Promise<unknown>;
