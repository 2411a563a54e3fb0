/**
 * What the standard `OTEL_*` variables ask of mcpx. OpenTelemetry is off unless they say
 * otherwise: traces (or metrics) go out over OTLP/HTTP when `OTEL_TRACES_EXPORTER` (or
 * `OTEL_METRICS_EXPORTER`) names `otlp`, or, left unset, when an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or the signal's own). `none` turns a signal off, and so does
 * `OTEL_SDK_DISABLED=true`. The exporters and the resource read the rest themselves (the
 * endpoints, headers, timeouts, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`); the batch
 * span processor's `OTEL_BSP_*` and the sampler's `OTEL_TRACES_SAMPLER[_ARG]` are read here,
 * the SDK's trace package no longer reading them.
 */
export interface OtelSettings {
  traces: boolean;
  metrics: boolean;
  /** `OTEL_METRIC_EXPORT_INTERVAL`, milliseconds (default 60 000). */
  metricIntervalMs: number;
  /** `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_BSP_EXPORT_TIMEOUT`, `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, where set. */
  batch: { scheduledDelayMillis?: number; exportTimeoutMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number };
  /** `OTEL_TRACES_SAMPLER` and its argument (default `parentbased_always_on`). */
  sampler: { name: SamplerName; ratio: number };
  /** What mcpx does not do of what was asked, to say once at start. */
  warnings: string[];
}

export const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** The one exporter mcpx has, and the OTLP encoding it sends. */
const SUPPORTED = "otlp";
const PROTOCOL = "http/protobuf";

export function otelSettings(env: NodeJS.ProcessEnv): OtelSettings {
  const warnings: string[] = [];
  const sampler = samplerOf(env, warnings);
  const batch = batchOf(env);
  const off = { traces: false, metrics: false, metricIntervalMs: 60_000, batch, sampler, warnings };
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return off;
  const signal = (name: "TRACES" | "METRICS", alsoAccepted: string[]): boolean => {
    const endpoint = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env[`OTEL_EXPORTER_OTLP_${name}_ENDPOINT`]);
    const listed = env[`OTEL_${name}_EXPORTER`];
    if (listed === undefined || listed.trim() === "") return endpoint;
    const exporters = listed.split(",").map((value) => value.trim().toLowerCase());
    for (const exporter of exporters) {
      if (exporter !== SUPPORTED && exporter !== "none" && !alsoAccepted.includes(exporter)) {
        warnings.push(`OTEL_${name}_EXPORTER=${exporter} is not one mcpx has (it sends ${SUPPORTED}); ignored`);
      }
    }
    return exporters.includes(SUPPORTED);
  };
  // `prometheus` is what /metrics of `serve --http` serves anyway: nothing to warn of.
  const traces = signal("TRACES", []);
  const metrics = signal("METRICS", ["prometheus"]);
  for (const name of ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"]) {
    const value = env[name]?.trim();
    if ((traces || metrics) && value && value !== PROTOCOL) warnings.push(`${name}=${value}: mcpx sends OTLP as ${PROTOCOL}`);
  }
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return { ...off, traces, metrics, metricIntervalMs: Number.isFinite(interval) && interval > 0 ? interval : 60_000 };
}

function samplerOf(env: NodeJS.ProcessEnv, warnings: string[]): OtelSettings["sampler"] {
  const named = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || "parentbased_always_on";
  const argument = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = Number.isFinite(argument) && argument >= 0 && argument <= 1 ? argument : 1;
  if ((SAMPLERS as readonly string[]).includes(named)) return { name: named as SamplerName, ratio };
  warnings.push(`OTEL_TRACES_SAMPLER=${named} is not one mcpx has (${SAMPLERS.join(", ")}); parentbased_always_on instead`);
  return { name: "parentbased_always_on", ratio };
}

function batchOf(env: NodeJS.ProcessEnv): OtelSettings["batch"] {
  const batch: OtelSettings["batch"] = {};
  const read = (name: string, key: keyof OtelSettings["batch"]): void => {
    const value = Number(env[name]);
    if (env[name] !== undefined && Number.isFinite(value) && value >= 0) batch[key] = value;
  };
  read("OTEL_BSP_SCHEDULE_DELAY", "scheduledDelayMillis");
  read("OTEL_BSP_EXPORT_TIMEOUT", "exportTimeoutMillis");
  read("OTEL_BSP_MAX_QUEUE_SIZE", "maxQueueSize");
  read("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "maxExportBatchSize");
  return batch;
}
