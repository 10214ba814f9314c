import { context, propagation, trace, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NoopSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { currentJob, jobSpanAttributes } from './log-context';

/** What tracing needs from the configuration (`tracing:` in lakeward.yaml). */
export interface TracingSettings {
  /** OTLP/HTTP base URL; null leaves tracing off. */
  otlp_endpoint: string | null;
  service_name: string;
}

export interface Tracing {
  /** False when no endpoint is configured: spans are not recorded or sent. */
  enabled: boolean;
  /** Where the Temporal workflow span sink hands the spans made inside workflow sandboxes. */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends the spans still buffered and stops the exporter (at shutdown). */
  shutdown(): Promise<void>;
}

/**
 * Stamps every span started inside a job's request or activity with the job's fields, so statement spans and
 * Temporal's activity spans need no call site to pass them.
 */
class JobAttributesProcessor implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span, parent: Context): void {
    const job = currentJob();
    if (job) span.setAttributes(jobSpanAttributes(job));
    this.next.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    this.next.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

let active: Tracing | undefined;

/**
 * Starts OpenTelemetry tracing for this process once (the global tracer provider, W3C trace context, async
 * context on AsyncLocalStorage) and returns it; later calls return the same. Off without an endpoint: the
 * global API then hands out no-op spans and nothing is exported.
 */
export function startTracing(settings: TracingSettings): Tracing {
  if (active) return active;
  if (!settings.otlp_endpoint) return tracingOff(settings.service_name);
  const exporter = new OTLPTraceExporter({ url: tracesUrl(settings.otlp_endpoint) });
  const spanProcessor = new JobAttributesProcessor(new BatchSpanProcessor(exporter));
  const resource = new Resource({ 'service.name': settings.service_name });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  active = {
    enabled: true,
    spanProcessor,
    resource,
    async shutdown() {
      await provider.forceFlush();
      await provider.shutdown();
      // A later stack in this process (tests) registers afresh.
      trace.disable();
      context.disable();
      propagation.disable();
      active = undefined;
    },
  };
  return active;
}

/** Tracing that records nothing (no endpoint configured). */
export function tracingOff(serviceName = 'lakeward'): Tracing {
  const resource = new Resource({ 'service.name': serviceName });
  return { enabled: false, spanProcessor: new NoopSpanProcessor(), resource, shutdown: async () => undefined };
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is a base URL; the traces signal lives under /v1/traces. */
export function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}
