/** Metrics pushed over OTLP/HTTP (protobuf) every `OTEL_METRIC_EXPORT_INTERVAL`. */
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import type { OtelSettings } from "../settings.js";

export function otlpMetricReader(settings: OtelSettings): PeriodicExportingMetricReader {
  return new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: settings.metricIntervalMs });
}
