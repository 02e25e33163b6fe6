/**
 * Poppler's and qpdf's verdicts on a PDF, as a reader of the sealed document would get them:
 * `pdfsig` for the signature, `qpdf --check` for the structure, `pdftotext` for what it says.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function withFile<T>(bytes: Uint8Array, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "pdf-tools-"));
  try {
    const path = join(dir, "document.pdf");
    await writeFile(path, bytes);
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a command printed, whatever its exit code (pdfsig exits non-zero on a broken signature). */
async function output(command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout + stderr;
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string };
    return stdout + stderr;
  }
}

export const pdfsig = (bytes: Uint8Array) => withFile(bytes, (path) => output("pdfsig", [path]));
export const qpdfCheck = (bytes: Uint8Array) => withFile(bytes, (path) => output("qpdf", ["--check", path]));
export const pdfText = (bytes: Uint8Array) =>
  withFile(bytes, (path) => output("pdftotext", ["-layout", path, "-"]));
