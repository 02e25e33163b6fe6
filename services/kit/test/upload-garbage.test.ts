/**
 * Counting an upload's bytes as they are read keeps the buffers they came in from piling up: a
 * process that drops each buffer after use holds a few collections' worth of them at any moment,
 * not the whole upload, though it allocates too little else for V8 to collect on its own.
 */
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
