/**
 * The OpenTelemetry SDK for a serving process: a tracer provider exporting over OTLP/HTTP
 * (protobuf) when traces are asked for, and one meter whose readers are the OTLP exporter
 * (when metrics are asked for) and the Prometheus exporter behind `/metrics` (`serve --http`).
 * Nothing is registered globally: mcpx holds its providers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { detectResources, envDetector, resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { MeterProvider, type IMetricReader } from "@opentelemetry/sdk-metrics";
import type { Logger } from "../../util/log.js";
import { within } from "../../util/sleep.js";
import { IMPLEMENTATION } from "../../version.js";
import type { OtelSettings } from "../settings.js";
import type { Telemetry } from "../telemetry.js";
import { Instruments } from "./instruments.js";

/** How long stopping waits for the last export. */
const SHUTDOWN_MS = 2_000;

/** Each part of the SDK is imported only when asked for: `/metrics` alone loads neither OTLP exporter nor the tracer. */
export async function startOtel(settings: OtelSettings, options: { prometheus: boolean; log: Logger }): Promise<Telemetry> {
  const { log } = options;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over mcpx's own name.
  const resource: Resource = resourceFromAttributes({ "service.name": IMPLEMENTATION.name, "service.version": IMPLEMENTATION.version }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const traces = settings.traces ? (await import("./trace-provider.js")).startTracing(settings, resource) : undefined;
  const prometheus = options.prometheus ? (await import("./prometheus.js")).prometheusReader() : undefined;
  const readers: IMetricReader[] = [
    ...(prometheus ? [prometheus] : []),
    ...(settings.metrics ? [(await import("./otlp-metrics.js")).otlpMetricReader(settings)] : []),
  ];
  const meterProvider = new MeterProvider({ resource, readers });
  const instruments = new Instruments(meterProvider.getMeter(IMPLEMENTATION.name, IMPLEMENTATION.version));
  const tracing = traces?.tracing;
  // Said only when OTEL_* asked for an export: /metrics alone is not news at every start.
  if (settings.traces || settings.metrics) log.info("OpenTelemetry on", { traces: settings.traces, metrics: settings.metrics, prometheus: options.prometheus });
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
        [traces?.shutdown(), meterProvider.shutdown()].map((done) =>
          done?.catch((error: unknown) => log.warn("OpenTelemetry did not shut down cleanly", { error })),
        ),
      );
      await within(flushed, SHUTDOWN_MS, undefined);
    },
  };
}
