/**
 * docs/configuration.md, generated from the zod schemas every process reads its environment with
 * (deploy/local/src/configuration.ts lists the processes). `npm run docs:config` writes it;
 * `--check`, run by `npm run lint`, fails when the file differs from what the schemas say, or when
 * the code reads a variable that no schema declares.
 *
 *   tsx scripts/configuration-reference.ts [--check] [--file docs/configuration.md]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { type ConfiguredProcess, PROCESSES } from "../deploy/local/src/configuration.js";

const REPO = fileURLToPath(new URL("../", import.meta.url));
export const REFERENCE_FILE = "docs/configuration.md";

/** The variable's properties as one process reads it. */
interface Reading {
  process: string;
  type: string;
  /** Rendered: "`600`", "—" (optional, no default) or "required". */
  default: string;
  description?: string;
}

/**
 * A schema's variables: an object's keys, both sides of an intersection, a pipe's input. A name
 * declared twice (the shared service variables and a service's own) has both declarations, and a
 * value must satisfy both.
 */
function fieldsOf(schema: z.ZodType, into = new Map<string, z.ZodType[]>()): Map<string, z.ZodType[]> {
  if (schema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(schema.shape))
      into.set(name, [...(into.get(name) ?? []), field]);
  } else if (schema instanceof z.ZodIntersection) {
    fieldsOf(schema._zod.def.left as z.ZodType, into);
    fieldsOf(schema._zod.def.right as z.ZodType, into);
  } else if (schema instanceof z.ZodPipe) {
    fieldsOf(schema._zod.def.in as z.ZodType, into);
  } else {
    throw new Error(`a configuration schema must be made of objects, not ${schema._zod.def.type}`);
  }
  return into;
}

const code = (value: unknown) => `\`${String(value)}\``;

interface Check {
  check: string;
  value?: number;
  inclusive?: boolean;
}

/** The base type in words: integer 1–8, URL, `all` | `api`, … */
function typeOf(schema: z.ZodType): string {
  const def = schema._zod.def as { type: string; format?: string; checks?: { _zod: { def: Check } }[] };
  if (def.type === "number") {
    // The tightest bounds the checks set: .min(1), .positive() (> 0), .max(8).
    let lower = "";
    let upper = "";
    let lowest = -Infinity;
    let highest = Infinity;
    for (const { check, value, inclusive } of (def.checks ?? []).map((c) => c._zod.def)) {
      if (check === "greater_than" && value !== undefined && value >= lowest) {
        lowest = value;
        lower = `${inclusive ? "≥" : ">"} ${value}`;
      }
      if (check === "less_than" && value !== undefined && value <= highest) {
        highest = value;
        upper = `${inclusive ? "≤" : "<"} ${value}`;
      }
    }
    const kind = (def.checks ?? []).some((c) => c._zod.def.check === "number_format") ? "integer" : "number";
    if (lower.startsWith("≥") && upper.startsWith("≤")) return `${kind} ${lowest}–${highest}`;
    return [kind, lower, upper].filter(Boolean).join(" ");
  }
  if (schema instanceof z.ZodEnum) return schema.options.map(code).join(" | ");
  if (def.type === "string") {
    if (def.format === "email") return "e-mail address";
    if (def.format === "url") return "URL";
    return "string";
  }
  return def.type;
}

/** How a process reads a variable it may declare more than once: required if any declaration requires it. */
function readFields(process: string, fields: z.ZodType[]): Reading {
  const readings = fields.map((field) => readField(process, field));
  const last = readings[readings.length - 1] as Reading;
  return {
    ...last,
    default: readings.some((r) => r.default === "required") ? "required" : last.default,
    description: readings.find((r) => r.description)?.description,
  };
}

/** A field's type, default and description, read through its wrappers (outermost first). */
function readField(process: string, field: z.ZodType): Reading {
  let schema: z.ZodType = field;
  let description: string | undefined;
  let type: string | undefined;
  let fallback: string | undefined;
  for (;;) {
    const meta = z.globalRegistry.get(schema);
    description ??= meta?.description;
    type ??= typeof meta?.type === "string" ? meta.type : undefined;
    const def = schema._zod.def as {
      type: string;
      innerType?: z.ZodType;
      in?: z.ZodType;
      defaultValue?: unknown;
    };
    if (def.type === "default" || def.type === "prefault") {
      const value = def.defaultValue;
      fallback ??= value === "" || value === undefined ? "—" : code(value);
    } else if (def.type === "optional") {
      fallback ??= "—";
    }
    if (def.innerType) schema = def.innerType;
    else if (def.type === "pipe" && def.in) schema = def.in;
    else break;
  }
  return { process, type: type ?? typeOf(schema), default: fallback ?? "required", description };
}

/** Every variable, with how each process that reads it reads it, in the order the processes are listed. */
export function readings(processes: ConfiguredProcess[]): Map<string, Reading[]> {
  const byVariable = new Map<string, Reading[]>();
  for (const process of processes) {
    const fields = new Map<string, z.ZodType[]>();
    for (const schema of process.schemas) fieldsOf(schema, fields);
    for (const [name, declarations] of fields) {
      const list = byVariable.get(name) ?? [];
      list.push(readFields(process.name, declarations));
      byVariable.set(name, list);
    }
  }
  return byVariable;
}

const SERVICES = ["auth", "templates", "documents", "requests", "webhooks"];

function readers(list: Reading[], processes: ConfiguredProcess[]): string {
  const names = list.map((r) => r.process);
  if (names.length === processes.length) return "every process";
  if (SERVICES.every((s) => names.includes(s)))
    return ["every service", ...names.filter((n) => !SERVICES.includes(n))].join(", ");
  return names.join(", ");
}

/** The value most readers have; the others after it, naming their readers. */
function mostCommon(list: Reading[], key: "type" | "default"): string {
  const groups = new Map<string, string[]>();
  for (const reading of list)
    groups.set(reading[key], [...(groups.get(reading[key]) ?? []), reading.process]);
  const ordered = [...groups].sort((a, b) => b[1].length - a[1].length);
  const [first, ...rest] = ordered;
  if (!first) return "";
  if (key === "type" || rest.length === 0) return first[0];
  return `${first[0]} (${rest.map(([value, names]) => `${names.join(", ")}: ${value}`).join("; ")})`;
}

/** What is wrong with the schemas' descriptions: none, or two that disagree. */
export function descriptionProblems(byVariable: Map<string, Reading[]>): string[] {
  const problems: string[] = [];
  for (const [name, list] of byVariable) {
    const described = new Map<string, string[]>();
    for (const r of list)
      if (r.description) described.set(r.description, [...(described.get(r.description) ?? []), r.process]);
    if (described.size === 0)
      problems.push(`${name}: no schema describes it (add .describe() where it is declared)`);
    if (described.size > 1)
      problems.push(
        `${name}: described differently by ${[...described.values()].map((p) => p.join("+")).join(" and ")}; describe it once`,
      );
  }
  return problems;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderReference(processes: ConfiguredProcess[] = PROCESSES): string {
  const byVariable = readings(processes);
  const problems = descriptionProblems(byVariable);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const lines = [
    "# Configuration",
    "",
    "<!-- Generated by `npm run docs:config` from the zod schemas the processes read their environment with",
    "     (deploy/local/src/configuration.ts lists them); `npm run lint` fails when this file is stale. -->",
    "",
    "Every process reads environment variables only, validates them at start, and stops with one line",
    "naming a bad one (exit code 78). Processes: `gateway`, the services `auth`, `templates`, `documents`",
    "(and its `converter`), `requests` (also as `requests-sealer`) and `webhooks`; `standalone` (`npm start`,",
    "everything in one process), the local distributed `launcher` (`npm run start:distributed`), the ops `CLI`",
    "and the development `timestamp-authority` of the dev overlay. A default that differs by process names",
    "the processes in parentheses.",
    "",
    "| variable | read by | type | default | meaning |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const name of [...byVariable.keys()].sort()) {
    const list = byVariable.get(name) as Reading[];
    const description = list.find((r) => r.description)?.description as string;
    lines.push(
      `| ${[code(name), readers(list, processes), mostCommon(list, "type"), mostCommon(list, "default"), description].map(cell).join(" | ")} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Names the code reads that are not configuration: the system's, or set by one of our processes for its child. */
const NOT_CONFIGURATION = new Set([
  "PATH",
  "LANG",
  "LC_ALL",
  "TZ",
  "HOME",
  "TMPDIR",
  // The job process's heap budget, set by its parent (services/kit/src/job-process.ts), never by an operator.
  "COUNTERSIGN_JOB_MEMORY_MB",
]);

/** The folders whose code runs in a deployment: each service's src, the gateway's, the composition root. */
export function sourceRoots(repo = REPO): string[] {
  const services = readdirSync(join(repo, "services")).map((name) => join(repo, "services", name, "src"));
  return [...services, join(repo, "gateway", "src"), join(repo, "deploy", "local", "src")];
}

function sourceFiles(dir: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Variables the code names but no schema declares: `process.env.X`, `process.env["X"]`, and any
 * `COUNTERSIGN_…` or `OTEL_…` name written out, each with the first file that names it.
 */
export function undeclaredVariables(declared: Set<string>, roots = sourceRoots(), repo = REPO): string[] {
  const found = new Map<string, string>();
  const patterns = [
    /process\.env\.([A-Z][A-Z0-9_]*)/g,
    /process\.env\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\]/g,
    /\b((?:COUNTERSIGN|OTEL)_[A-Z0-9_]*[A-Z0-9])\b/g,
  ];
  for (const file of roots.flatMap(sourceFiles)) {
    const text = readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const name = match[1] as string;
        if (!declared.has(name) && !NOT_CONFIGURATION.has(name) && !found.has(name))
          found.set(name, relative(repo, file));
      }
    }
  }
  return [...found].map(([name, file]) => `${name} (${file})`).sort();
}

/** Also named in prose by the schemas' own descriptions: the OTLP options the SDK reads itself. */
const SDK_VARIABLES = ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TIMEOUT"];

/** Every variable a schema declares, and those the OpenTelemetry SDK reads on its own. */
export function declaredVariables(processes: ConfiguredProcess[] = PROCESSES): Set<string> {
  return new Set([...readings(processes).keys(), ...SDK_VARIABLES]);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      file: { type: "string", default: REFERENCE_FILE },
    },
  });
  const file = resolve(REPO, values.file as string);
  const text = renderReference();
  if (!values.check) {
    writeFileSync(file, text);
    console.log(`${values.file}: written`);
    return;
  }
  const failures: string[] = [];
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {}
  if (current !== text) failures.push(`${values.file} is stale: run npm run docs:config`);
  for (const name of undeclaredVariables(declaredVariables()))
    failures.push(`${name}: read by the code but declared by no configuration schema`);
  if (failures.length > 0) {
    for (const failure of failures) console.error(`configuration reference: ${failure}`);
    process.exit(1);
  }
  console.log(`configuration reference: ${values.file} is current, every variable read is declared`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
