/**
 * The data directory belongs to one process at a time: two processes must never open the same
 * PGlite files. The lock is taken first thing at start, before the services' modules are loaded, so
 * a second process says at once that it waits, and why.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@countersign/kit/config.js";
import type { Logger } from "@countersign/kit/logger.js";
import lockfile from "proper-lockfile";

/** How long a lock outlives the process that held it, when that process was killed. */
const LOCK_STALE_MS = 10_000;
/** How often a lock held by another process is tried again, and how long for. */
const LOCK_RETRY_MS = 250;
const LOCK_WAIT_MS = LOCK_STALE_MS * 1.5;

/** The process that holds the data directory, as it wrote itself beside the lock (a bare directory). */
export interface LockHolder {
  pid: number;
  startedAt: string;
}

const HOLDER_FILE = "instance.json";

async function readHolder(dataDir: string): Promise<LockHolder | undefined> {
  const text = await readFile(join(dataDir, HOLDER_FILE), "utf8").catch(() => undefined);
  try {
    return text ? (JSON.parse(text) as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process, atomically (an exclusive mkdir, refreshed while the
 * process lives): two processes never open the same PGlite files. A lock left by a killed process
 * is taken over once it is stale, so a restart right after a crash waits 10 seconds at most;
 * `onWaiting` hears at the first refusal, with the holder when it recorded itself, so that the
 * wait is never silent. `onLost` hears when the lock could not be refreshed in time (the process
 * was suspended or stalled past the stale time), since another process may then have taken the data.
 */
async function lockDataDir(
  dataDir: string,
  onLost: (err: Error) => void,
  onWaiting: (holder: LockHolder | undefined, waitMs: number) => void,
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lock = (retries: number) =>
    lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, "instance.lock"),
      stale: LOCK_STALE_MS,
      retries: { retries, minTimeout: LOCK_RETRY_MS, maxTimeout: LOCK_RETRY_MS },
      onCompromised: onLost,
    });
  const isLocked = (err: unknown) => (err as NodeJS.ErrnoException).code === "ELOCKED";
  let release: () => Promise<void>;
  try {
    release = await lock(0).catch(async (err: unknown) => {
      if (!isLocked(err)) throw err;
      onWaiting(await readHolder(dataDir), LOCK_WAIT_MS);
      return lock(Math.ceil(LOCK_WAIT_MS / LOCK_RETRY_MS));
    });
  } catch (err) {
    if (isLocked(err)) {
      throw new ConfigError(
        `COUNTERSIGN_DATA_DIR: ${dataDir} is in use by another running Countersign; stop it or choose another directory`,
      );
    }
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, startedAt: new Date(performance.timeOrigin).toISOString() };
  await writeFile(join(dataDir, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
  return async () => {
    await rm(join(dataDir, HOLDER_FILE), { force: true });
    await release();
  };
}

/** The data directory, held by this process until `release` (a second call changes nothing). */
export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes the data directory, saying so when another process holds it (the wait may be long enough,
 * a killed process's lock going stale in 10 s, to look like a hang). Should this process stall past
 * the lock's stale time (a suspended laptop, most often), it takes the lock again if nobody else
 * did meanwhile, and stops if somebody did.
 */
export async function holdDataDir(dataDir: string, log: Logger): Promise<DataDirLock> {
  const waiting = (holder: LockHolder | undefined, waitMs: number) => {
    const who = holder
      ? `another process (pid ${holder.pid}, started ${holder.startedAt})`
      : "another process";
    log.warn(
      { dataDir, holderPid: holder?.pid, holderStartedAt: holder?.startedAt },
      `waiting up to ${waitMs / 1000} s for the data directory's lock, held by ${who}: two processes must never open the same database files; a lock left by a process that was killed frees itself within 10 s`,
    );
  };
  const lost = (err: Error) => {
    log.error({ err }, "lost the data dir lock; taking it again");
    lockDataDir(dataDir, lost, waiting).then(
      (again) => {
        unlock = again;
      },
      (failed: unknown) => {
        log.fatal({ err: failed }, "another process has the data dir; stopping");
        log.flush();
        process.exit(1);
      },
    );
  };
  let unlock = await lockDataDir(dataDir, lost, waiting);
  // Released once, whoever asks first: a start that fails lets go of it, and so does its caller.
  let released: Promise<void> | undefined;
  return { release: () => (released ??= unlock()) };
}
