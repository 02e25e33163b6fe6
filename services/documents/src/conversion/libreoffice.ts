/**
 * LibreOffice, headless, as the reader of office documents: one `soffice` process per conversion, in
 * a profile of this process's own (made once, with macros and the updating of linked content off),
 * killed with everything it started when it runs past the time limit. Each format is opened with its
 * own reader named: LibreOffice otherwise opens a file it does not recognise as plain text.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { SourceFormat } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";

/** LibreOffice's reader of each office format (its "filter"). */
const IMPORT_FILTERS: Partial<Record<SourceFormat, string>> = {
  [SourceFormat.DOCX]: "MS Word 2007 XML",
  [SourceFormat.ODT]: "writer8",
  [SourceFormat.RTF]: "Rich Text Format",
};

/**
 * The profile's settings: macros never run, and content a document links to (images, other
 * documents, by URL) is not fetched when it is opened. The converter's pod reaches no network
 * either; a standalone service does.
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

/** The conversion was called off: its caller went away, or the converter is stopping. Nobody's fault. */
export class ConversionStopped extends Error {
  override name = "ConversionStopped";
}

/**
 * What soffice is given of the environment: enough to run, none of the service's own variables (a
 * database URL, store keys, tokens), which a document that exploits LibreOffice would read first.
 */
function sofficeEnvironment(workDir: string): NodeJS.ProcessEnv {
  const kept = ["PATH", "LANG", "LC_ALL", "TZ"].flatMap((name) =>
    process.env[name] === undefined ? [] : [[name, process.env[name]]],
  );
  return { ...Object.fromEntries(kept), HOME: workDir, TMPDIR: workDir, SAL_USE_VCLPLUGIN: "svp" };
}

export class LibreOffice {
  /** The soffice running now (one at a time), killed by `stop`. */
  private running: { pid: number | undefined; stop: () => void } | undefined;
  private stopped = false;

  constructor(
    private readonly binary: string,
    /** A folder of this process's own, for the profile. */
    private readonly workDir: string,
  ) {}

  /**
   * Converts `input` (named with its format's extension) to a PDF in `outDir`, at most `maxPages`
   * pages of it (0: all), and answers the PDF's path.
   */
  async convert(
    input: string,
    format: SourceFormat,
    outDir: string,
    { timeoutMs, maxPages, signal }: { timeoutMs: number; maxPages: number; signal?: AbortSignal },
  ): Promise<string> {
    const filter = IMPORT_FILTERS[format];
    if (!filter) throw new Error(`LibreOffice does not convert format ${SourceFormat[format]}`);
    const profile = await this.profile();
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
    await this.run(args, timeoutMs, signal);
    const output = join(outDir, `${basename(input).replace(/\.[^.]+$/, "")}.pdf`);
    // LibreOffice says "source file could not be loaded" and still exits with 0: the PDF is the answer.
    const made = await stat(output).catch(() => undefined);
    if (!made?.isFile() || made.size === 0) throw new ConversionFailed("LibreOffice could not open it");
    return output;
  }

  /** Kills the soffice running now and refuses any later conversion: the converter is stopping. */
  stop(): void {
    this.stopped = true;
    this.running?.stop();
  }

  /**
   * The profile, with its settings checked before every conversion: without them (a folder swept
   * away, a file removed), soffice would make a default profile, with macros and links allowed.
   */
  private async profile(): Promise<string> {
    const profile = join(this.workDir, "libreoffice-profile");
    const settings = join(profile, "user", "registrymodifications.xcu");
    if ((await readFile(settings, "utf8").catch(() => "")).includes("DisableMacrosExecution")) return profile;
    await rm(profile, { recursive: true, force: true });
    await mkdir(join(profile, "user"), { recursive: true, mode: 0o700 });
    await writeFile(settings, PROFILE_SETTINGS);
    return profile;
  }

  /** soffice in a process group of its own, killed whole at the time limit, on `signal`, or by `stop`. */
  private run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.stopped) return Promise.reject(new ConversionStopped("the converter is stopping"));
    if (signal?.aborted) return Promise.reject(new ConversionStopped("the upload was called off"));
    return new Promise((resolve, reject) => {
      const child = spawn(this.binary, args, {
        detached: true,
        stdio: "ignore",
        env: sofficeEnvironment(this.workDir),
      });
      let ended: Error | undefined;
      const end = (why: Error) => {
        ended ??= why;
        killGroup(child.pid);
      };
      const onAbort = () => end(new ConversionStopped("the upload was called off"));
      const timer = setTimeout(
        () => end(new ConversionFailed(`it was not converted within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.running = { pid: child.pid, stop: () => end(new ConversionStopped("the converter is stopping")) };
      const settle = (err?: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.running = undefined;
        // Anything it left running (a crash reporter, a stuck child) goes with it.
        killGroup(child.pid);
        const why = ended ?? err;
        if (why) reject(why);
        else resolve();
      };
      child.once("error", (err) => settle(err));
      child.once("exit", () => settle());
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
