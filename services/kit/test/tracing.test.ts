/**
 * Tracing's configuration by the standard OTEL_* variables, its trace ids in log lines, and the trace
 * context carried by a NATS message header from a publisher's span to its consumer's.
 */
import { Writable } from "node:stream";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace";
import { NatsEventBus } from "../src/event-bus-nats.js";
import { createLogger } from "../src/logger.js";
import {
  currentTraceparent,
  inSpan,
  SpanKind,
  samplerFromEnv,
  startTracing,
  stopTracing,
  TracingConfigError,
} from "../src/tracing.js";
import { available, NATS_URL, uniqueName } from "./infra.js";

const nats = await available("NATS", NATS_URL);

afterEach(() => stopTracing());

test("tracing is off unless a variable names an exporter or an OTLP endpoint, and OTEL_SDK_DISABLED wins", async () => {
  expect(startTracing({ serviceName: "t", env: {} })).toBe(false);
  expect(startTracing({ serviceName: "t", env: { OTEL_TRACES_EXPORTER: "none" } })).toBe(false);
  expect(
    startTracing({
      serviceName: "t",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" },
    }),
  ).toBe(false);
  expect(
    startTracing({ serviceName: "t", env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" } }),
  ).toBe(true);
  await stopTracing();
  expect(() => startTracing({ serviceName: "t", env: { OTEL_TRACES_EXPORTER: "zipkin" } })).toThrow(
    "OTEL_TRACES_EXPORTER: zipkin is not one of otlp, console, none",
  );
});

test("the sampler is the one OTEL_TRACES_SAMPLER names, with its ratio checked", () => {
  expect(samplerFromEnv({}).toString()).toBe(
    "ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}",
  );
  expect(
    samplerFromEnv({
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.1",
    }).toString(),
  ).toContain("root=TraceIdRatioBased{0.1}");
  expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }).toString()).toBe("AlwaysOffSampler");
  expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(
    TracingConfigError,
  );
  expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(
    "OTEL_TRACES_SAMPLER: sometimes",
  );
});

test("a log line written in a traced span carries its trace id; one outside carries none", async () => {
  const exporter = new InMemorySpanExporter();
  startTracing({ serviceName: "t", exporter, env: {} });
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const logger = createLogger({ name: "test", destination });
  let traceId = "";
  await inSpan("work", {}, async (span) => {
    traceId = span?.spanContext().traceId ?? "";
    logger.info("inside");
  });
  logger.info("outside");
  expect(lines.map((line) => [line.msg, line.traceId])).toEqual([
    ["inside", traceId],
    ["outside", undefined],
  ]);
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
});

(nats ? test : test.skip)(
  "a NATS message carries its publisher's trace, and the consumer's span is a child of it",
  async () => {
    const exporter = new InMemorySpanExporter();
    startTracing({ serviceName: "t", exporter, env: {} });
    const bus = await NatsEventBus.connect({
      url: NATS_URL,
      namespace: uniqueName("trace"),
      name: "kit-test",
    });
    try {
      const handled: (string | null)[] = [];
      const stop = await bus.consume("traced.x", "tracer", async () => {
        handled.push(currentTraceparent());
      });
      let publisher = "";
      await inSpan("publish", { kind: SpanKind.PRODUCER }, async (span) => {
        publisher = span?.spanContext().spanId ?? "";
        await bus.publish("traced.x", new Uint8Array([1]), {
          traceparent: currentTraceparent() ?? undefined,
        });
      });
      const deadline = Date.now() + 10_000;
      while (handled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const consumer = exporter.getFinishedSpans().find((span) => span.name === "process traced.x");
      expect(consumer?.parentSpanContext?.spanId).toBe(publisher);
      expect(consumer?.attributes["messaging.consumer.group.name"]).toBe("tracer");
      expect(handled[0]).toContain(consumer?.spanContext().spanId);
      await stop();
    } finally {
      await bus.destroy();
    }
  },
);
