/**
 * JSON log lines (pino) with the request id, and with every field whose name says it may carry a
 * secret (by pattern, not from a list of names) replaced by "[redacted]", however deep it sits, so that no API key, password, token or
 * cookie reaches a log. Redaction walks the logged object once; an object with nothing to hide is
 * passed through untouched (the access log line, written for every request, costs nothing extra).
 */
import { type DestinationStream, type Logger, pino } from "pino";
import { currentCallContext } from "./context.js";
import { currentTraceId } from "./tracing.js";

export type { Logger };

/**
 * What a field name says when its value may be a secret: any of these within it, in any case and
 * spelling (`sessionToken`, `seal_password`, `X-Csrf-Token`, `privateKeyPem`), or the word `key`
 * (`apiKey`, `signing-key`) — unless its last word says it only describes one (`keyId`,
 * `tokenExpiresAt`, `keyPrefix`), which the console and logs need to tell keys apart.
 */
const SECRET_PARTS =
  /token|ticket|secret|passw(or)?d|passphrase|authori[sz]ation|cookie|pepper|credential|private.?key|api.?key/;
const SECRET_WORDS = new Set(["key", "keys", "pwd", "pin", "otp"]);
const DESCRIPTIVE_WORDS = new Set([
  "id",
  "ids",
  "name",
  "names",
  "prefix",
  "hint",
  "count",
  "length",
  "type",
  "kind",
  "at",
  "expires",
  "expiry",
  "url",
  "path",
  "file",
  "usage",
  "version",
]);

/**
 * Verdicts by field name. Log lines carry a fixed set of names (the access log's six on every
 * request), and splitting each into words was 4 % of a ping's CPU; the bound keeps names built from
 * data, should any be logged, from growing it without end.
 */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** Whether a field of this name is never logged (see SECRET_PARTS). */
export function isSecretField(name: string): boolean {
  let secret = verdicts.get(name);
  if (secret === undefined) {
    secret = judgeFieldName(name);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(name, secret);
  }
  return secret;
}

function judgeFieldName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0 || DESCRIPTIVE_WORDS.has(words[words.length - 1] as string)) return false;
  return SECRET_PARTS.test(words.join("")) || words.some((word) => SECRET_WORDS.has(word));
}

const CENSOR = "[redacted]";
const MAX_DEPTH = 6;

/** A copy of value with secret fields censored, or value itself when it holds none. */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH || value instanceof Error)
    return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted === item) return;
      copy ??= [...value];
      copy[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redacted = isSecretField(key) ? CENSOR : redactSecrets(item, depth + 1);
    if (redacted === item) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = redacted;
  }
  return (copy ?? value) as T;
}

export interface LoggerOptions {
  name: string;
  level?: string;
  destination?: DestinationStream;
}

/** How long a log line may wait to be written together with the ones after it. */
const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * Where log lines go: stdout, written asynchronously in batches of at least 4 KiB or every 100 ms,
 * whichever comes first — one write per line costs a busy gateway more than the line itself.
 * Loggers of one process share one. Lines are handed over as bytes: given text, sonic-boom measures
 * the whole batch gathered so far again on every line (flattening it), 5 KB of garbage a line on a
 * busy gateway; given bytes, it keeps a list and joins it once per write.
 */
export function createLogDestination(): DestinationStream {
  const out = pino.destination({ sync: false, minLength: 4096, contentMode: "buffer" });
  setInterval(() => out.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return {
    write: (line: string) => out.write(Buffer.from(line) as unknown as string),
    flush: (done?: (err?: Error) => void) => out.flush(done),
  } as DestinationStream;
}

export function createLogger({ name, level = "info", destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { log: (object) => redactSecrets(object) },
      mixin() {
        const requestId = currentCallContext()?.requestId;
        const traceId = currentTraceId();
        if (traceId) return requestId ? { requestId, traceId } : { traceId };
        return requestId ? { requestId } : {};
      },
    },
    destination ?? createLogDestination(),
  );
}

/** Fields of a line whose every name and value the caller knows: no secret, no object, no undefined to keep. */
export type PlainFields = Record<string, string | number | undefined>;

/**
 * Writes lines of plain fields straight to a logger's destination at level info, in the shape its
 * own lines take (the same level, time, bindings and message key). It is for the access log, one
 * line on every request: pino's own call, built for any value with mixins and redaction, cost a
 * request about 3 µs and 7 KB of garbage. A line is written only when the logger's level takes info.
 */
export function plainInfoWriter(logger: Logger): (fields: PlainFields, message: string) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const destination = internals[pino.symbols.streamSym] as DestinationStream;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  return (fields, message) => {
    if (!logger.isLevelEnabled("info")) return;
    let line = `{"level":30,"time":"${new Date().toISOString()}"${bindings}`;
    for (const name in fields) {
      const value = fields[name];
      if (value === undefined) continue;
      line += `,${JSON.stringify(name)}:${typeof value === "number" && Number.isFinite(value) ? value : JSON.stringify(value)}`;
    }
    destination.write(`${line},"msg":${JSON.stringify(message)}}\n`);
  };
}
