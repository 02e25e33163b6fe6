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

/** MuPDF's verdict on every signature (`mutool sign -v`). */
export const mutoolVerify = (bytes: Uint8Array) =>
  withFile(bytes, (path) => output("mutool", ["sign", "-v", path]));

/** A signature as the file lays it out: what its byte range covers, and its /Contents as DER. */
export interface LaidSignature {
  byteRange: [number, number, number, number];
  covered: Buffer;
  contents: Buffer;
}

/**
 * Every signature in `pdf`, found by its /ByteRange as a reader finds them, without our code: the
 * covered bytes are the two ranges, the contents the hex string between them (its zero padding cut
 * by the DER length the first bytes give).
 */
export function laidSignatures(pdf: Uint8Array): LaidSignature[] {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString("latin1");
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((match) => {
    const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
    const hex = text.slice(a + b + 1, c - 1);
    const padded = Buffer.from(hex, "hex");
    return {
      byteRange: [a, b, c, d],
      covered: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
      contents: padded.subarray(0, derLength(padded)),
    };
  });
}

/** The length of the DER value at the start of `bytes`, header included. */
function derLength(bytes: Buffer): number {
  const first = bytes[1] as number;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  let length = 0;
  for (let i = 0; i < octets; i += 1) length = length * 256 + (bytes[2 + i] as number);
  return 2 + octets + length;
}

/** What OpenSSL prints, and whether it succeeded, for `openssl <args>` run in a folder holding `files`. */
export async function openssl(
  files: Record<string, Uint8Array | string>,
  args: (dir: string) => string[],
): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), "openssl-"));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    try {
      const { stdout, stderr } = await run("openssl", args(dir));
      return { ok: true, output: stdout + stderr };
    } catch (err) {
      const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string };
      return { ok: false, output: stdout + stderr };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
