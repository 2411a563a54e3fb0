/** The sampler `OTEL_TRACES_SAMPLER` names (settings.ts), built from the SDK's own. */
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from "@opentelemetry/sdk-trace";
import type { OtelSettings } from "../settings.js";

export function samplerFor({ name, ratio }: OtelSettings["sampler"]): Sampler {
  const root = name.endsWith("always_on") ? new AlwaysOnSampler() : name.endsWith("always_off") ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}
