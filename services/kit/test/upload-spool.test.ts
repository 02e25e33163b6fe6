/**
 * The spool directory: uploads are received there (under the data dir in standalone), a spooled
 * upload is handed over by its URL and taken only from there, and what a killed process left is
 * swept at start — but not what another replica is receiving right now.
 */

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  spooledFileUrl,
  spoolUpload,
  sweepSpool,
  takeSpooledUpload,
  UploadTooLargeError,
} from "../src/upload-spool.js";

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

test("an upload is hashed on its way in unless the spooler leaves that to whoever takes it", async () => {
  const hashed = await spoolUpload(bytes("%PDF-1.7"), 1024, spoolDir);
  expect(hashed.sha256).toBe(createHash("sha256").update("%PDF-1.7").digest("hex"));
  const plain = await spoolUpload(bytes("%PDF-1.7"), 1024, spoolDir, { hash: false });
  expect(plain.sha256).toBeUndefined();
  await expect(spoolUpload(bytes("%PDF-1.7"), 4, spoolDir)).rejects.toBeInstanceOf(UploadTooLargeError);
});

test("a spooled upload is taken by its URL, with its size, and removed when discarded", async () => {
  const spooled = await spoolUpload(bytes("%PDF-1.7"), 1024, spoolDir, { hash: false });
  const taken = await takeSpooledUpload(spooledFileUrl(spooled), 1024, spoolDir);
  expect(taken).toMatchObject({ path: spooled.path, sizeBytes: 8 });
  expect(taken.sha256).toBeUndefined();
  await taken.discard();
  expect(existsSync(spooled.path)).toBe(false);
});

test("only a plain file the spool directory holds is taken, and none over the limit", async () => {
  const outside = join(spoolDir, "..", "outside");
  await mkdir(join(outside, "upload-x"), { recursive: true });
  await writeFile(join(outside, "upload-x", "upload"), "%PDF-1.7 not yours");
  await mkdir(join(spoolDir, "upload-dir", "upload"), { recursive: true });
  await symlink(join(outside, "upload-x"), join(spoolDir, "upload-link"));
  for (const url of [
    pathToFileURL(join(outside, "upload-x", "upload")).href,
    `${pathToFileURL(spoolDir).href}/../outside/upload-x/upload`,
    pathToFileURL(join(spoolDir, "upload-dir", "upload")).href,
    pathToFileURL(join(spoolDir, "upload-link", "upload")).href,
    "https://example.com/upload-x/upload",
  ]) {
    const refused = await takeSpooledUpload(url, 1024, spoolDir).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.InvalidArgument);
  }
  expect(existsSync(join(outside, "upload-x", "upload"))).toBe(true);
  const large = await spoolUpload(bytes("%PDF-1.7"), 1024, spoolDir, { hash: false });
  await expect(takeSpooledUpload(spooledFileUrl(large), 4, spoolDir)).rejects.toBeInstanceOf(
    UploadTooLargeError,
  );
  expect(existsSync(large.path)).toBe(false);
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
