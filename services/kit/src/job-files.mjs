// @ts-check
/**
 * How bytes cross between a JobProcess and its child. A document (any Uint8Array of 64 KiB or more,
 * anywhere in a job or a result) goes as a file in the parent's job folder, written and read in
 * libuv's thread pool: sent through the IPC channel, it was copied by structured clone on the
 * sending thread, and cutting a 1,000-page document for /restapi held the gateway's event loop a
 * third of the time. Smaller bytes go in the message, copied out of a larger buffer they view
 * (structured clone would send the whole buffer under them). The reader deletes each file it reads.
 */
import { randomUUID } from "node:crypto";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { types } from "node:util";

const FILE_THRESHOLD = 64 * 1024;
/** The key of the object that stands for bytes sent as a file. */
const FILE_KEY = "countersign.jobFile";

/**
 * `value` with every large Uint8Array written to a file in `folder` and replaced by its path;
 * `written` collects the paths, for the sender to delete when the reader never came.
 * @param {unknown} value
 * @param {string} folder
 * @param {string[]} written
 * @returns {Promise<unknown>}
 */
export async function bytesToFiles(value, folder, written) {
  if (types.isUint8Array(value)) {
    if (value.byteLength < FILE_THRESHOLD) {
      const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
      return whole ? value : new Uint8Array(value);
    }
    const path = join(folder, randomUUID());
    written.push(path);
    await writeFile(path, value, { mode: 0o600 });
    return { [FILE_KEY]: path };
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => bytesToFiles(item, folder, written)));
  if (isPlainObject(value)) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await bytesToFiles(item, folder, written)]),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * `value` with every file that stands for bytes read back, and deleted.
 * @param {unknown} value
 * @returns {Promise<unknown>}
 */
export async function filesToBytes(value) {
  if (Array.isArray(value)) return Promise.all(value.map(filesToBytes));
  if (!isPlainObject(value)) return value;
  const path = value[FILE_KEY];
  if (typeof path === "string") {
    const bytes = await readFile(path);
    await unlink(path);
    return bytes;
  }
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, item]) => [key, await filesToBytes(item)]),
  );
  return Object.fromEntries(entries);
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isPlainObject(value) {
  // By its tag, not its prototype: what the IPC channel makes belongs to the main realm, and the
  // tests run this module in a realm of their own.
  return Object.prototype.toString.call(value) === "[object Object]";
}
