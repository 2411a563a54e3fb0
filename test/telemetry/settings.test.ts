/**
 * Which signals the standard `OTEL_*` variables turn on: off unless set; an endpoint alone
 * turns both on; an exporter list names `otlp` or `none`; `OTEL_SDK_DISABLED` wins; what mcpx
 * does not have is said, not silently taken.
 */
import { describe, expect, it } from "vitest";
import { otelSettings } from "../../src/telemetry/settings.js";

describe("OTEL_* settings", () => {
  it("is off with no OTEL_* variable", () => {
    expect(otelSettings({})).toMatchObject({ traces: false, metrics: false, warnings: [] });
  });

  it("an OTLP endpoint turns on both signals; a signal's own endpoint only that one", () => {
    expect(otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toMatchObject({ traces: true, metrics: true });
    expect(otelSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toMatchObject({ traces: true, metrics: false });
  });

  it("the exporter lists decide: otlp on, none off, prometheus accepted for metrics, anything else said and ignored", () => {
    expect(otelSettings({ OTEL_TRACES_EXPORTER: "otlp" })).toMatchObject({ traces: true, metrics: false });
    expect(otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318", OTEL_METRICS_EXPORTER: "none" })).toMatchObject({ traces: true, metrics: false });
    expect(otelSettings({ OTEL_METRICS_EXPORTER: "prometheus" })).toMatchObject({ metrics: false, warnings: [] });
    const zipkin = otelSettings({ OTEL_TRACES_EXPORTER: "zipkin, otlp" });
    expect(zipkin.traces).toBe(true);
    expect(zipkin.warnings).toEqual(["OTEL_TRACES_EXPORTER=zipkin is not one mcpx has (it sends otlp); ignored"]);
  });

  it("OTEL_SDK_DISABLED=true turns everything off", () => {
    expect(otelSettings({ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318" })).toMatchObject({ traces: false, metrics: false });
  });

  it("reads the export interval, the batch settings and the sampler", () => {
    const settings = otelSettings({
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_METRIC_EXPORT_INTERVAL: "5000",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_BSP_MAX_QUEUE_SIZE: "64",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
    });
    expect(settings).toMatchObject({
      metricIntervalMs: 5000,
      batch: { scheduledDelayMillis: 100, maxQueueSize: 64 },
      sampler: { name: "parentbased_traceidratio", ratio: 0.25 },
    });
    expect(otelSettings({ OTEL_TRACES_SAMPLER: "jaeger_remote" }).warnings[0]).toContain("OTEL_TRACES_SAMPLER=jaeger_remote");
  });

  it("says that only http/protobuf is sent", () => {
    expect(otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }).warnings).toEqual([
      "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: mcpx sends OTLP as http/protobuf",
    ]);
  });
});
