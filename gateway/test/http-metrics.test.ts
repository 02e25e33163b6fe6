/**
 * The gateway's Prometheus metrics: every answer is counted by surface, route template and status,
 * and timed; they are served on a port of their own, never on the public one. A call refused
 * before it reached a route (no key) has no route template: it never becomes one series per path.
 */
import { createLogger, MemoryEventBus } from "@countersign/kit";
import { buildGateway, unconnectedServices } from "../src/app.js";
import { listen, serveMetrics } from "../src/http-server.js";

test("answers are counted by surface and status, and served only on the metrics port", async () => {
  const gateway = buildGateway({
    services: unconnectedServices(),
    bus: new MemoryEventBus(),
    logger: createLogger({ name: "gateway", level: "silent" }),
    publicUrl: "http://localhost",
    ready: async () => {},
  });
  const server = await listen(0, "127.0.0.1");
  server.serve(gateway.app);
  const metrics = await serveMetrics(gateway.metrics, 0, "127.0.0.1");
  try {
    // Without a key: 401 before any route, whatever the id in the path.
    for (const id of ["a", "b", "c"]) await fetch(`${server.url}/api/v1/templates/${id}`);
    await fetch(`${server.url}/healthz`);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);

    const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
    expect(text).toContain('http_server_requests_total{surface="api",route="",method="GET",status="401"} 3');
    expect(text).toContain(
      'http_server_requests_total{surface="probe",route="",method="GET",status="200"} 1',
    );
    expect(text).toContain(
      'http_server_request_duration_seconds_count{surface="api",route="",method="GET"} 3',
    );
    // No raw path (and so no id) becomes a label.
    expect(text).not.toContain("/templates/a");
    expect((await fetch(`http://127.0.0.1:${metrics.port}/other`)).status).toBe(404);
  } finally {
    await server.close();
    await metrics.close();
  }
});
