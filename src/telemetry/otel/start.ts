/**
 * The OpenTelemetry SDK for a serving process: a tracer provider exporting over OTLP/HTTP
 * (protobuf) when traces are asked for, and one meter whose readers are the OTLP exporter
 * (when metrics are asked for) and the Prometheus exporter behind `/metrics` (`serve --http`).
 * Nothing is registered globally: mcpx holds its providers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { detectResources, envDetector, resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { Logger } from "../../util/log.js";
import { within } from "../../util/sleep.js";
import { IMPLEMENTATION } from "../../version.js";
import type { OtelSettings } from "../settings.js";
import type { Telemetry } from "../telemetry.js";
import { Instruments } from "./instruments.js";
import { samplerFor } from "./sampler.js";
import { Tracing } from "./tracing.js";

const SCOPE = "mcpx";
/** How long stopping waits for the last export. */
const SHUTDOWN_MS = 2_000;

export function startOtel(settings: OtelSettings, options: { prometheus: boolean; log: Logger }): Telemetry {
  const { log } = options;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over mcpx's own name.
  const resource: Resource = resourceFromAttributes({ "service.name": IMPLEMENTATION.name, "service.version": IMPLEMENTATION.version }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const tracerProvider = settings.traces
    ? new TracerProvider({
        resource,
        sampler: samplerFor(settings.sampler),
        spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...settings.batch })],
      })
    : undefined;
  const prometheus = options.prometheus ? new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true }) : undefined;
  const readers: IMetricReader[] = [
    ...(prometheus ? [prometheus] : []),
    ...(settings.metrics ? [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: settings.metricIntervalMs })] : []),
  ];
  const meterProvider = new MeterProvider({ resource, readers });
  const instruments = new Instruments(meterProvider.getMeter(SCOPE, IMPLEMENTATION.version));
  const tracing = tracerProvider ? new Tracing(tracerProvider.getTracer(SCOPE, IMPLEMENTATION.version)) : undefined;
  log.info("OpenTelemetry on", { traces: settings.traces, metrics: settings.metrics, prometheus: options.prometheus });
  return {
    ...(tracing
      ? {
          traceHostRequest: (request, serve) => tracing.host(request, serve),
          traceUpstreamRequest: (request, params, send) => tracing.upstream(request, params, send),
        }
      : {}),
    callEnded: (server, tool, outcome, durationMs) => instruments.callEnded(server, tool, outcome, durationMs),
    question: (event) => instruments.question(event),
    upstreamRestarted: (server) => instruments.upstreamRestarted(server),
    sessionOpened: (transport) => instruments.sessionOpened(transport),
    sessionClosed: (transport, openMs) => instruments.sessionClosed(transport, openMs),
    ...(prometheus ? { prometheus: (request: IncomingMessage, response: ServerResponse) => prometheus.getMetricsRequestHandler(request, response) } : {}),
    // What is left goes out, but a collector that is down does not hold up mcpx's exit for long.
    shutdown: async () => {
      const flushed = Promise.all(
        [tracerProvider?.shutdown(), meterProvider.shutdown()].map((done) =>
          done?.catch((error: unknown) => log.warn("OpenTelemetry did not shut down cleanly", { error })),
        ),
      );
      await within(flushed, SHUTDOWN_MS, undefined);
    },
  };
}
