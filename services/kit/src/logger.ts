/**
 * JSON log lines (pino) with the request id, and with every field that can carry a secret
 * redacted, however deep it sits, so that no API key, password, token or cookie reaches a log.
 */
import { type DestinationStream, type Logger, pino } from "pino";
import { currentCallContext } from "./context.js";

export type { Logger };

const SECRET_KEYS = [
  "secret",
  "password",
  "token",
  "authorization",
  "cookie",
  "apiKey",
  "adminToken",
  "pepper",
];

export const redactPaths = SECRET_KEYS.flatMap((key) => [
  key,
  `*.${key}`,
  `*.*.${key}`,
  `*.*.*.${key}`,
]).concat([
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers["x-csrf-token"]',
  'req.headers["x-csrf-token"]',
]);

export interface LoggerOptions {
  name: string;
  level?: string;
  destination?: DestinationStream;
}

export function createLogger({ name, level = "info", destination }: LoggerOptions): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths, censor: "[redacted]" },
      mixin() {
        const requestId = currentCallContext()?.requestId;
        return requestId ? { requestId } : {};
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
