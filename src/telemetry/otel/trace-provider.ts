/** Traces over OTLP/HTTP (protobuf): the SDK's tracer provider with a batch, and the spans mcpx makes with it (tracing.ts). */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { IMPLEMENTATION } from "../../version.js";
import type { OtelSettings } from "../settings.js";
import { samplerFor } from "./sampler.js";
import { Tracing } from "./tracing.js";

export function startTracing(settings: OtelSettings, resource: Resource): { tracing: Tracing; shutdown: () => Promise<void> } {
  const provider = new TracerProvider({
    resource,
    sampler: samplerFor(settings.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...settings.batch })],
  });
  return { tracing: new Tracing(provider.getTracer(IMPLEMENTATION.name, IMPLEMENTATION.version)), shutdown: () => provider.shutdown() };
}
