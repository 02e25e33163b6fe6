/**
 * The box LibreOffice runs in: bubblewrap (`bwrap`) with every namespace unshared (no network), an
 * empty root of its own, and nothing of this machine in it but the system's programs, libraries and
 * fonts (read-only), the one file being converted (read-only) and the folders it writes (the output,
 * its profile). A document that names another file (an RTF's INCLUDEPICTURE "file:///…") finds none.
 * Its address space is capped with prlimit, so one document cannot take the machine's memory.
 */
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { basename, dirname } from "node:path";

/** `bwrap` (the default): confined; `off`: the operator chose to run LibreOffice unconfined. */
export type SandboxMode = "bwrap" | "off";

/** What a sandboxed run may touch, and how much memory it may map. */
export interface SandboxGrant {
  /** Files or folders it may read, at the same paths as outside. */
  reads: string[];
  /** Folders it may write, at the same paths as outside. */
  writes: string[];
  /** Its address space, in MiB: LibreOffice maps some 500 MiB to open the smallest document. */
  memoryMb: number;
}

/** The system's programs, libraries, fonts and LibreOffice's own settings: read-only, where they exist. */
const SYSTEM_PATHS = [
  "/usr",
  "/etc/fonts",
  "/etc/libreoffice",
  "/etc/ld.so.cache",
  "/etc/localtime",
  "/var/cache/fontconfig",
  "/var/lib/libreoffice",
];

/** The top-level links a merged-/usr system has (/bin → usr/bin), made again inside the box. */
const TOP_LEVEL_LINKS = ["/bin", "/sbin", "/lib", "/lib64", "/lib32"];

/**
 * Where an installation of `binary` lives, to be readable in the box: LibreOffice's own folder
 * (`…/program/soffice` → `…`) when it is outside /usr, else the folder of the binary itself.
 */
function installationOf(binary: string): string[] {
  const real = realpathSync(binary);
  if (real.startsWith("/usr/")) return [];
  const folder = dirname(real);
  return [basename(folder) === "program" ? dirname(folder) : folder];
}

/** The top-level links of this system, as bwrap arguments (--symlink usr/bin /bin). */
async function topLevelLinks(): Promise<string[]> {
  const args: string[] = [];
  for (const path of TOP_LEVEL_LINKS) {
    const info = await lstat(path).catch(() => undefined);
    if (info?.isSymbolicLink()) args.push("--symlink", await readlink(path), path);
    else if (info?.isDirectory()) args.push("--ro-bind", path, path);
  }
  return args;
}

/**
 * The command that runs `binary args` confined to `grant` in `mode`, with only `env` for its
 * environment. With the sandbox off, the memory cap still holds.
 */
export async function sandboxed(
  binary: string,
  args: string[],
  env: Record<string, string>,
  grant: SandboxGrant,
  mode: SandboxMode,
): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  const cap = [`--as=${grant.memoryMb * 1024 * 1024}`, "--"];
  if (mode === "off") return { command: "prlimit", args: [...cap, binary, ...args], env };
  const box = [
    "--unshare-all",
    // No --new-session: bwrap is started in a session of its own with no terminal already (a
    // detached spawn), and staying in its process group lets one kill end everything in the box.
    "--die-with-parent",
    "--clearenv",
    // The box's own /proc, /dev and an empty /tmp first: a path bound below may lie under /tmp.
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    ...SYSTEM_PATHS.flatMap((path) => ["--ro-bind-try", path, path]),
    ...(await topLevelLinks()),
    ...installationOf(binary).flatMap((path) => ["--ro-bind", path, path]),
    // Read-only after the writable, so that a file to read in a folder it writes stays read-only.
    ...grant.writes.flatMap((path) => ["--bind", path, path]),
    ...grant.reads.flatMap((path) => ["--ro-bind", path, path]),
    ...Object.entries(env).flatMap(([name, value]) => ["--setenv", name, value]),
    "--",
    binary,
    ...args,
  ];
  return { command: "prlimit", args: [...cap, "bwrap", ...box], env: { PATH: env.PATH ?? "/usr/bin:/bin" } };
}

/**
 * Why LibreOffice cannot be run as `mode` says here (bwrap or prlimit missing, user namespaces not
 * allowed to this user; with the box off, prlimit alone), in a sentence for the operator; undefined
 * when it can.
 */
export async function sandboxUnavailable(mode: SandboxMode): Promise<string | undefined> {
  const probe = await sandboxed("/usr/bin/true", [], {}, { reads: [], writes: [], memoryMb: 64 }, mode);
  return new Promise((resolve) => {
    let stderr = "";
    const child = spawn(probe.command, probe.args, { stdio: ["ignore", "ignore", "pipe"], env: probe.env });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", (err) => resolve(`${probe.command} could not be run: ${err.message}`));
    child.once("exit", (code) =>
      resolve(
        code === 0
          ? undefined
          : `${probe.args.includes("bwrap") ? "bwrap" : "prlimit"} failed (${stderr.trim() || `exit code ${code}`})`,
      ),
    );
  });
}
