/**
 * The spool directory: uploads are received there (under the data dir in standalone), and what a
 * killed process left is swept at start — but not what another replica is receiving right now.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spoolUpload, sweepSpool } from "../src/upload-spool.js";

let spoolDir: string;
beforeEach(async () => {
  spoolDir = join(await mkdtemp(join(tmpdir(), "spool-test-")), "spool");
});
afterEach(() => rm(join(spoolDir, ".."), { recursive: true, force: true }));

async function* bytes(text: string) {
  yield new TextEncoder().encode(text);
}

test("an upload is received under the spool directory and removed when discarded", async () => {
  const spooled = await spoolUpload(bytes("%PDF-1.7"), 1024, spoolDir);
  expect(spooled.path.startsWith(`${spoolDir}/upload-`)).toBe(true);
  expect(spooled.sizeBytes).toBe(8);
  await spooled.discard();
  expect(existsSync(spooled.path)).toBe(false);
});

test("the sweep removes uploads a killed process left behind and keeps the ones in progress", async () => {
  const left = join(spoolDir, "upload-left");
  const current = join(spoolDir, "upload-current");
  for (const dir of [left, current]) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "upload"), "partial");
  }
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await utimes(left, anHourAgo, anHourAgo);
  expect(await sweepSpool(spoolDir)).toBe(1);
  expect([existsSync(left), existsSync(current)]).toEqual([false, true]);
});
