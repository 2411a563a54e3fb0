/** The Prometheus text exposition of the meter, served by mcpx's own `/metrics` route (the exporter's server is not started). */
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";

export function prometheusReader(): PrometheusExporter {
  return new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
}
