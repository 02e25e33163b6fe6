/**
 * OpenTelemetry tracing, off unless configured. When on, one trace follows a call from the gateway
 * through every service it reaches (W3C `traceparent` in Connect headers), through the events it
 * causes (the outbox keeps the context with the event, NATS carries it in a header) and into the
 * webhook deliveries they make; spans are made for database statements, S3 calls, SMTP and outbound
 * HTTP within a traced call. Configured by the standard variables: an OTLP endpoint
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER turns
 * it on, OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG sample, OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES name the process, OTEL_SDK_DISABLED=true turns it off. Off, every hook
 * here returns at its first line: a process that does not trace pays nothing for it.
 */
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { z } from "zod";

export { SpanKind, SpanStatusCode };

/**
 * The standard variables as this process reads them (the OpenTelemetry SDK reads the rest of the
 * specification's, such as OTEL_EXPORTER_OTLP_HEADERS, itself); declared here so that the
 * configuration reference lists them beside every other variable.
 */
export const tracingConfig = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .describe(
      "turns OpenTelemetry tracing on: spans go over OTLP/HTTP to this collector (Jaeger, Tempo, an OpenTelemetry Collector on port 4318); `OTEL_EXPORTER_OTLP_HEADERS` and `_TIMEOUT` as the specification says",
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .string()
    .optional()
    .describe("as `OTEL_EXPORTER_OTLP_ENDPOINT`, for traces alone; it wins over that one"),
  OTEL_TRACES_SAMPLER: z
    .string()
    .optional()
    .describe(
      "which traces are kept (default `parentbased_always_on`): `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG=0.1` keeps one in ten, following the caller's decision where it sent a `traceparent`",
    ),
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .optional()
    .describe("the ratio, 0 to 1, for the `traceidratio` samplers"),
  OTEL_TRACES_EXPORTER: z
    .string()
    .optional()
    .describe(
      "`otlp` turns tracing on (to `http://localhost:4318` without an endpoint), `console` writes spans to stdout, `none` keeps it off",
    ),
  OTEL_SDK_DISABLED: z.string().optional().describe("`true` keeps tracing off, whatever else is set"),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .describe("the process's name in traces (default `countersign-<service>`, `countersign` in standalone)"),
  OTEL_RESOURCE_ATTRIBUTES: z
    .string()
    .optional()
    .describe("the process's further attributes in traces, `key=value,…`"),
});

/** The W3C header a trace's context travels in, between processes and in stored events. */
export const TRACEPARENT = "traceparent";

let provider: TracerProvider | undefined;
let cachedTracer: Tracer | undefined;
const tracer = () => {
  cachedTracer ??= trace.getTracer("countersign");
  return cachedTracer;
};

/** Whether this process traces: every hook checks it first. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

export interface TracingOptions {
  /** The process's service.name unless OTEL_SERVICE_NAME says otherwise: "countersign-requests". */
  serviceName: string;
  /** Where spans go instead of what the variables say (tests: an in-memory exporter). */
  exporter?: SpanExporter;
  /** The variables to read; process.env unless given. */
  env?: NodeJS.ProcessEnv;
}

/** Why a variable was refused, in one line naming it. */
export class TracingConfigError extends Error {}

/** The sampler OTEL_TRACES_SAMPLER names, as the specification defines them (parent-based by default). */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? "parentbased_always_on").trim().toLowerCase();
  const ratio = () => {
    const arg = env.OTEL_TRACES_SAMPLER_ARG;
    if (arg === undefined || arg.trim() === "") return 1;
    const value = Number(arg);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new TracingConfigError(`OTEL_TRACES_SAMPLER_ARG: ${arg} is not a ratio between 0 and 1`);
    }
    return value;
  };
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio());
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      throw new TracingConfigError(
        `OTEL_TRACES_SAMPLER: ${name} is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio`,
      );
  }
}

/** The exporter the variables ask for, or none when they do not turn tracing on. */
function exporterFromEnv(env: NodeJS.ProcessEnv): SpanExporter | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const named = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (named === "none") return undefined;
  if (named === "console") return new ConsoleSpanExporter();
  if (named !== undefined && named !== "" && named !== "otlp") {
    throw new TracingConfigError(`OTEL_TRACES_EXPORTER: ${named} is not one of otlp, console, none`);
  }
  // The specification's default exporter is OTLP; here it is on only when asked for, so that a
  // standalone start sends nothing anywhere.
  if (named === "otlp" || endpoint) return new OTLPTraceExporter();
  return undefined;
}

/**
 * Starts tracing when the variables (or `exporter`) ask for it; returns whether it did. Once per
 * process; `stopTracing` sends what is left.
 */
export function startTracing(options: TracingOptions): boolean {
  const env = tracingConfig.parse(options.env ?? process.env);
  if (provider) return true;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = options.exporter ?? exporterFromEnv(env);
  if (!exporter) return false;
  const made = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    sampler: samplerFromEnv(env),
    // A test reads its spans as soon as the work ends; a process sends them in batches.
    spanProcessors: [
      options.exporter ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter }),
    ],
  });
  trace.setGlobalTracerProvider(made);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  provider = made;
  return true;
}

/** Sends the spans not yet sent and stops tracing (shutdown, tests). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  if (!stopping) return;
  provider = undefined;
  cachedTracer = undefined;
  await stopping.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

/** The active span's trace id, for log lines and problem answers; undefined when nothing is traced. */
export function currentTraceId(): string | undefined {
  if (!provider) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/** The active trace's context as a `traceparent` value, to store with work done later; null without one. */
export function currentTraceparent(): string | null {
  if (!provider) return null;
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier[TRACEPARENT] ?? null;
}

/** Writes the active context into outgoing headers (a Connect call's, an HTTP request's). */
export function injectTraceContext(headers: { set(name: string, value: string): void }): void {
  if (!provider) return;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
}

const recordGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The context a `traceparent` (from headers or a stored event) names; the root context without one. */
export function contextFrom(traceparent: string | null | undefined): Context {
  if (!provider || !traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent }, recordGetter);
}

/** Whether the active context belongs to a trace (a span of this process's, or a caller's). */
export function inTrace(active: Context = context.active()): boolean {
  return provider !== undefined && isSpanContextValid(trace.getSpanContext(active) ?? INVALID_SPAN_CONTEXT);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; the active context unless given. */
  parent?: Context;
  /** Made only inside a trace: a statement run by a background poll starts no trace of its own. */
  onlyInTrace?: boolean;
}

/**
 * Runs fn in a span of its own, ended when fn settles (an error recorded on it); fn runs in the
 * span's context, so what it calls joins the trace. Off, fn runs alone.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!provider) return fn(undefined);
  const parent = options.parent ?? context.active();
  if (options.onlyInTrace && !inTrace(parent)) return fn(undefined);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return context.with(trace.setSpan(parent, span), () =>
    fn(span).then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        failSpan(span, err);
        span.end();
        throw err;
      },
    ),
  );
}

/** Starts a span the caller ends (a response that ends later than the call that made it). */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } | undefined {
  if (!provider) return undefined;
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/**
 * Runs fn outside any trace: work that serves many calls at once (a batch of events, a flush on a
 * timer one of them started) belongs to none of their traces.
 */
export function outsideTrace<T>(fn: () => T): T {
  return provider ? context.with(ROOT_CONTEXT, fn) : fn();
}

/** Runs fn in a context (a span's, from startSpan). */
export function withContext<T>(active: Context, fn: () => T): T {
  return context.with(active, fn);
}

export function failSpan(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
