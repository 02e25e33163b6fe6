/**
 * JSON log lines (pino) with the request id, and with every field whose name says it may carry a
 * secret replaced by "[redacted]", however deep it sits, so that no API key, password, token or
 * cookie reaches a log. Redaction walks the logged object once; an object with nothing to hide is
 * passed through untouched (the access log line, written for every request, costs nothing extra).
 */
import { type DestinationStream, type Logger, pino } from "pino";
import { currentCallContext } from "./context.js";

export type { Logger };

/** Lower-cased field names whose values are never logged. */
const SECRET_FIELDS = new Set([
  "secret",
  "password",
  "token",
  "authorization",
  "cookie",
  "set-cookie",
  "x-csrf-token",
  "csrftoken",
  "apikey",
  "admintoken",
  "pepper",
]);

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
    const redacted = SECRET_FIELDS.has(key.toLowerCase()) ? CENSOR : redactSecrets(item, depth + 1);
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
 * Loggers of one process share one.
 */
export function createLogDestination(): DestinationStream {
  const destination = pino.destination({ sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
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
        return requestId ? { requestId } : {};
      },
    },
    destination ?? createLogDestination(),
  );
}
