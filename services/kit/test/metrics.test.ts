import { Registry } from "prom-client";
import { createRpcMetrics } from "../src/metrics.js";

async function handled(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric("rpc_server_handled_total")?.get();
  return Object.fromEntries(
    (metric?.values ?? []).map(({ labels, value }) => [`${labels.method} ${labels.code}`, value]),
  );
}

test("each finished call is counted by method and code, and its latency observed", async () => {
  const metrics = createRpcMetrics();
  metrics.start("countersign.auth.v1.AuthService", "GetWorkspace")("OK");
  metrics.start("countersign.auth.v1.AuthService", "GetWorkspace")("OK");
  metrics.start("countersign.auth.v1.AuthService", "GetWorkspace")("NotFound");
  expect(await handled(metrics.registry)).toEqual({ "GetWorkspace OK": 2, "GetWorkspace NotFound": 1 });
  const text = await metrics.registry.metrics();
  expect(text).toMatch(
    /rpc_server_handling_seconds_count\{service="countersign.auth.v1.AuthService",method="GetWorkspace"\} 3/,
  );
  expect(text).toContain("process_cpu_seconds_total");
});

test("services sharing one registry (standalone mode) share its metrics instead of failing", async () => {
  const registry = new Registry();
  const auth = createRpcMetrics(registry);
  const documents = createRpcMetrics(registry);
  auth.start("countersign.auth.v1.AuthService", "GetWorkspace")("OK");
  documents.start("countersign.documents.v1.DocumentsService", "GetDocument")("OK");
  expect(await handled(registry)).toEqual({ "GetWorkspace OK": 1, "GetDocument OK": 1 });
});
