/**
 * W3C trace context in an MCP request's `params._meta`, as the MCP semantic conventions of
 * OpenTelemetry carry it (`traceparent`, `tracestate`): read from a host's request, written
 * into the request mcpx sends upstream in place of whatever the host had put there.
 */
import { ROOT_CONTEXT, trace, type Context, type TextMapGetter, type TextMapSetter } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";

const propagator = new W3CTraceContextPropagator();
const KEYS = propagator.fields();

const getter: TextMapGetter<JsonObject> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

const setter: TextMapSetter<JsonObject> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** The context a host's request names as its parent, or the root. */
export function parentFrom(params: JsonObject | undefined): Context {
  const meta = params?._meta;
  return isObject(meta) ? propagator.extract(ROOT_CONTEXT, meta, getter) : ROOT_CONTEXT;
}

/** The params with `_meta` carrying `context`'s span as the parent (the other `_meta` entries kept). */
export function withTraceContext(params: JsonObject | undefined, context: Context): JsonObject {
  const meta: JsonObject = {};
  const before = params?._meta;
  if (isObject(before)) for (const [key, value] of Object.entries(before)) if (!KEYS.includes(key)) meta[key] = value;
  if (trace.getSpanContext(context)) propagator.inject(context, meta, setter);
  return { ...(params ?? {}), _meta: meta };
}
