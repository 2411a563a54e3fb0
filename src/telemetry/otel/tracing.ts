/**
 * A span per host request (kind SERVER, its parent the host's `_meta.traceparent`) and per
 * request sent upstream (kind CLIENT, a child of the host request it serves, its own context
 * sent in `_meta`). The host request's span is carried to the upstream one by an
 * AsyncLocalStorage context manager, held here rather than registered globally.
 */
import { SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { HostRequest, UpstreamRequest } from "../telemetry.js";
import { parentFrom, withTraceContext } from "./meta-carrier.js";
import { failure, hostSpan, upstreamSpan } from "./span-attributes.js";

export class Tracing {
  readonly #contexts = new AsyncLocalStorageContextManager().enable();

  constructor(private readonly tracer: Tracer) {}

  host(request: HostRequest, serve: () => Promise<JsonObject>): Promise<JsonObject> {
    const parent = parentFrom(request.params);
    const { name, attributes } = hostSpan(request);
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
    return this.#ended(span, this.#contexts.with(trace.setSpan(parent, span), serve));
  }

  upstream(request: UpstreamRequest, params: JsonObject | undefined, send: (params: JsonObject | undefined) => Promise<JsonObject>): Promise<JsonObject> {
    const parent: Context = this.#contexts.active();
    const { name, attributes } = upstreamSpan(request, params);
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    let sent: Promise<JsonObject>;
    try {
      sent = send(withTraceContext(params, trace.setSpan(parent, span)));
    } catch (error) {
      sent = Promise.reject(error);
    }
    return this.#ended(span, sent);
  }

  /** End the span with the request's outcome; the outcome itself passes through untouched. */
  #ended(span: Span, pending: Promise<JsonObject>): Promise<JsonObject> {
    return pending.then(
      (result) => {
        const failed = failure({ result });
        if (failed) {
          span.setAttribute("error.type", failed.type);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
        return result;
      },
      (error: unknown) => {
        const failed = failure({ error });
        if (failed) {
          span.setAttribute("error.type", failed.type);
          if (failed.code !== undefined) span.setAttribute("rpc.response.status_code", String(failed.code));
          span.setStatus({ code: SpanStatusCode.ERROR, ...(failed.message ? { message: failed.message } : {}) });
        }
        span.end();
        throw error;
      },
    );
  }
}
