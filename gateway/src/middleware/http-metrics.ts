/**
 * Prometheus metrics of the public HTTP surface: requests by surface, route, method and status,
 * and their duration. Routes are the API's templates (`/v1/accounts/{accountId}/templates`), never
 * the raw path, so that the number of series stays bounded.
 */
import type { Request, Response } from "express";
import { Counter, Histogram, type Registry } from "prom-client";
import type { ResponseEndHook } from "./request-context.js";

/** Which part of the gateway answered, by path prefix. */
const SURFACES: [prefix: string, surface: string][] = [
  ["/v1/", "api"],
  ["/api/v1/", "api"],
  ["/restapi/", "restapi"],
  ["/oauth/", "oauth"],
  ["/mcp/", "mcp"],
  ["/sign", "signing"],
  ["/console", "console"],
  ["/healthz", "probe"],
  ["/readyz", "probe"],
];

function surfaceOf(path: string): string {
  return SURFACES.find(([prefix]) => path.startsWith(prefix))?.[1] ?? "other";
}

export function httpMetrics(registry: Registry): ResponseEndHook {
  const requests = new Counter({
    name: "http_server_requests_total",
    help: "HTTP requests answered by the gateway",
    labelNames: ["surface", "route", "method", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_server_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer",
    labelNames: ["surface", "route", "method"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (req: Request, res: Response) => {
    const labels = {
      surface: surfaceOf(req.path),
      route: (res.locals.route as string | undefined) ?? "",
      method: req.method,
    };
    requests.inc({ ...labels, status: String(res.statusCode) });
    duration.observe(labels, (performance.now() - (res.locals.startedAt as number)) / 1000);
  };
}
