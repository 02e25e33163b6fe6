/**
 * LibreOffice, headless, as the reader of office documents: one `soffice` process per conversion, in
 * a box that holds only its file (office-sandbox.ts), with a fresh profile (macros and the updating of
 * linked content off), killed with everything it started when it runs past the time limit. Each
 * format is opened with its own reader named: LibreOffice otherwise opens a file it does not
 * recognise as plain text.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { basename, delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { SourceFormat } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import { type SandboxMode, sandboxed } from "./office-sandbox.js";

/** LibreOffice's reader of each office format (its "filter"). */
const IMPORT_FILTERS: Partial<Record<SourceFormat, string>> = {
  [SourceFormat.DOCX]: "MS Word 2007 XML",
  [SourceFormat.ODT]: "writer8",
  [SourceFormat.RTF]: "Rich Text Format",
};

/**
 * The profile's settings: macros never run, and content a document links to (images, other
 * documents, by URL) is not fetched when it is opened. In its box there is no network, and no file
 * but its own, to fetch in any case.
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseDocumentOOoLockFile" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/** Where LibreOffice is installed by the usual packages, after the PATH. */
const USUAL_PLACES = [
  "/usr/lib/libreoffice/program/soffice",
  "/opt/libreoffice/program/soffice",
  "/Applications/LibreOffice.app/Contents/MacOS/soffice",
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The soffice to run: `configured` when given ("off" for none), else the first on the PATH or in the
 * usual places; undefined when there is none.
 */
export function findLibreOffice(configured?: string): string | undefined {
  if (configured === "off") return undefined;
  if (configured) return executable(configured) ? configured : undefined;
  const onPath = (process.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => [join(dir, "soffice"), join(dir, "libreoffice")]);
  return [...onPath, ...USUAL_PLACES].find(executable);
}

/** The file could not be converted (LibreOffice could not open it, or took too long): its fault. */
export class ConversionFailed extends Error {
  override name = "ConversionFailed";
}

/** The conversion ran out of its time limit. */
export class ConversionTimedOut extends ConversionFailed {
  override name = "ConversionTimedOut";
}

/** The conversion was called off: its caller went away, or the converter is stopping. Nobody's fault. */
export class ConversionStopped extends Error {
  override name = "ConversionStopped";
}

/**
 * What soffice is given of the environment: enough to run, none of the service's own variables (a
 * database URL, store keys, tokens), which a document that exploits LibreOffice would read first.
 * In the box, its home and temporary folder are the box's own /tmp.
 */
function sofficeEnvironment(home: string): Record<string, string> {
  const kept = ["PATH", "LANG", "LC_ALL", "TZ"].flatMap((name) => {
    const value = process.env[name];
    return value === undefined ? [] : [[name, value]];
  });
  return { ...Object.fromEntries(kept), HOME: home, TMPDIR: home, SAL_USE_VCLPLUGIN: "svp" };
}

export interface LibreOfficeOptions {
  /** The soffice to run. */
  binary: string;
  /** A folder of this process's own, for each conversion's profile. */
  workDir: string;
  /** How soffice is confined: `bwrap` unless an operator turned the box off. */
  sandbox: SandboxMode;
  /** The address space one soffice may map, in MiB. */
  memoryMb: number;
}

export class LibreOffice {
  /** The soffice running now (one at a time), killed by `stop`. */
  private running: { pid: number | undefined; stop: () => void } | undefined;
  private stopped = false;

  constructor(private readonly options: LibreOfficeOptions) {}

  /**
   * Converts `input` (named with its format's extension) to a PDF in `outDir`, at most `maxPages`
   * pages of it (0: all), and answers the PDF's path. soffice may read `input` and write `outDir`
   * and a profile made for this conversion alone, so that no document leaves anything for the next.
   */
  async convert(
    input: string,
    format: SourceFormat,
    outDir: string,
    { timeoutMs, maxPages, signal }: { timeoutMs: number; maxPages: number; signal?: AbortSignal },
  ): Promise<string> {
    const filter = IMPORT_FILTERS[format];
    if (!filter) throw new Error(`LibreOffice does not convert format ${SourceFormat[format]}`);
    const { binary, workDir, sandbox, memoryMb } = this.options;
    await mkdir(workDir, { recursive: true, mode: 0o700 });
    const profile = await mkdtemp(join(workDir, "profile-"));
    try {
      await mkdir(join(profile, "user"), { mode: 0o700 });
      await writeFile(join(profile, "user", "registrymodifications.xcu"), PROFILE_SETTINGS);
      const pageRange = maxPages > 0 ? `:{"PageRange":{"type":"string","value":"1-${maxPages}"}}` : "";
      const args = [
        "--headless",
        "--norestore",
        "--nologo",
        "--nolockcheck",
        "--nodefault",
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
        `--infilter=${filter}`,
        "--convert-to",
        `pdf:writer_pdf_Export${pageRange}`,
        "--outdir",
        outDir,
        input,
      ];
      const env = sofficeEnvironment(sandbox === "off" ? profile : "/tmp");
      const grant = { reads: [input], writes: [outDir, profile], memoryMb };
      const exitCode = await this.run(await sandboxed(binary, args, env, grant, sandbox), timeoutMs, signal);
      const output = join(outDir, `${basename(input).replace(/\.[^.]+$/, "")}.pdf`);
      // LibreOffice says "source file could not be loaded" and still exits with 0: the PDF is the answer.
      const made = await stat(output).catch(() => undefined);
      if (made?.isFile() && made.size > 0) return output;
      // An allocation refused at the cap aborts soffice (a signal's exit code, 128 and more).
      if (exitCode === null || exitCode >= 128)
        throw new ConversionFailed(
          `LibreOffice stopped while reading it (it may need more than ${memoryMb} MiB)`,
        );
      throw new ConversionFailed("LibreOffice could not open it");
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
  }

  /** Kills the soffice running now and refuses any later conversion: the converter is stopping. */
  stop(): void {
    this.stopped = true;
    this.running?.stop();
  }

  /**
   * soffice (in its box) in a process group of its own, killed whole at the time limit, on `signal`,
   * or by `stop`; answers its exit code (null: ended by a signal).
   */
  private run(
    { command, args, env }: { command: string; args: string[]; env: Record<string, string> },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<number | null> {
    if (this.stopped) return Promise.reject(new ConversionStopped("the converter is stopping"));
    if (signal?.aborted) return Promise.reject(new ConversionStopped("the upload was called off"));
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { detached: true, stdio: "ignore", env });
      let ended: Error | undefined;
      const end = (why: Error) => {
        ended ??= why;
        killGroup(child.pid);
      };
      const onAbort = () => end(new ConversionStopped("the upload was called off"));
      const timer = setTimeout(
        () => end(new ConversionTimedOut(`it was not converted within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.running = { pid: child.pid, stop: () => end(new ConversionStopped("the converter is stopping")) };
      const settle = (err?: Error, code: number | null = null) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.running = undefined;
        // Anything it left running (a crash reporter, a stuck child) goes with it.
        killGroup(child.pid);
        const why = ended ?? err;
        if (why) reject(why);
        else resolve(code);
      };
      child.once("error", (err) => settle(err));
      child.once("exit", (code) => settle(undefined, code));
    });
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group has ended already.
  }
}
