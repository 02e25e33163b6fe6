/**
 * Counting an upload's bytes as they are read keeps the buffers they came in from piling up: a
 * process that drops each buffer after use holds a few collections' worth of them at any moment,
 * not the whole upload, though it allocates too little else for V8 to collect on its own.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { COLLECT_EVERY_BYTES, uploadBytesRead } from "../src/upload-garbage.js";

const PIECE_BYTES = 64 * 1024;

test("the buffers of 40 MiB read in 64 KiB pieces are freed every few MiB", () => {
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  let checksum = 0;
  for (let read = 0; read < 40 * 2 ** 20; read += PIECE_BYTES) {
    // As a socket read: a new buffer, used once, then dropped.
    const piece = Buffer.alloc(PIECE_BYTES, (read / PIECE_BYTES) & 0xff);
    checksum += piece[0] as number;
    uploadBytesRead(piece.length);
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }
  expect(checksum).toBeGreaterThan(0);
  // V8 sweeps freed buffers in the background: the last intervals' may still count beside the current one's.
  expect(peak - before).toBeLessThan(4 * COLLECT_EVERY_BYTES);
});

test("a process started without --expose-gc says so once, however many of its parts read uploads", async () => {
  // In a process of its own, without the flag: standalone's gateway and documents both ask.
  const script = `
    const { warnWithoutUploadCollection } = await import(${JSON.stringify(new URL("../src/upload-garbage.ts", import.meta.url).href)});
    const said = [];
    const logger = { warn: (message) => said.push(message) };
    warnWithoutUploadCollection(logger);
    warnWithoutUploadCollection(logger);
    console.log(JSON.stringify(said.length));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    {
      cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    },
  );
  expect(JSON.parse(stdout.trim())).toBe(1);
});
