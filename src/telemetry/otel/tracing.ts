/**
 * A span per host request (kind SERVER, its parent the host's `_meta.traceparent`) and per
 * request sent upstream (kind CLIENT, a child of the host request it serves, its own context
 * sent in `_meta`). The host request's span is found again by the request's key (its
 * connection and id) while it is open: no async context manager, whose hooks on every promise
 * would cost every call.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { CallerKey, HostRequest, UpstreamRequest } from "../telemetry.js";
import { parentFrom, withTraceContext } from "./meta-carrier.js";
import { failure, hostSpan, upstreamSpan } from "./span-attributes.js";

export class Tracing {
  /** The contexts of the host requests being served, by connection and request id. */
  readonly #open = new WeakMap<object, Map<string | number, Context>>();

  constructor(private readonly tracer: Tracer) {}

  host(request: HostRequest, serve: () => Promise<JsonObject>): Promise<JsonObject> {
    const parent = parentFrom(request.params);
    const { name, attributes } = hostSpan(request);
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
    const { scope, requestId } = request.caller;
    let open = this.#open.get(scope);
    if (!open) this.#open.set(scope, (open = new Map()));
    open.set(requestId, trace.setSpan(parent, span));
    let served: Promise<JsonObject>;
    try {
      served = serve();
    } catch (error) {
      served = Promise.reject(error);
    }
    return this.#ended(span, served).finally(() => open.delete(requestId));
  }

  upstream(request: UpstreamRequest, params: JsonObject | undefined, send: (params: JsonObject | undefined) => Promise<JsonObject>): Promise<JsonObject> {
    const parent = this.#parentOf(request.caller);
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

  #parentOf(caller: CallerKey | undefined): Context {
    return (caller && this.#open.get(caller.scope)?.get(caller.requestId)) ?? ROOT_CONTEXT;
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
