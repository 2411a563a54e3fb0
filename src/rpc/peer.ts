/**
 * One JSON-RPC conversation over a channel: our outgoing requests and their answers,
 * the peer's incoming requests and our answers, cancellation and progress in both directions.
 *
 * The same class serves both sides of mcpx: toward an upstream (mcpx is the client) and
 * toward a host (mcpx is the server). It knows no MCP method beyond the two utilities
 * every MCP request shares: `notifications/cancelled` and `notifications/progress`.
 */
import type { Arrival, Channel, Route } from "./channel.js";
import {
  errorResponse,
  isObject,
  isRequest,
  isResponse,
  resultResponse,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from "../protocol/jsonrpc.js";
import { GatewayError, RpcError, toWireError } from "../protocol/errors.js";
import { silentLogger, type Logger } from "../util/log.js";

export interface RequestOptions {
  route?: Route;
  /** Give up after this long; the peer is told with `notifications/cancelled`. */
  timeoutMs?: number;
  /** Progress from the peer restarts the timeout (long tools that report progress). */
  resetTimeoutOnProgress?: boolean;
  signal?: AbortSignal;
  /** Progress notifications carrying this token are delivered to `onProgress`. */
  progressToken?: string | number;
  onProgress?: (params: JsonObject) => void;
  /** Called with the id the request goes out under, just before it is sent. */
  onId?: (id: RequestId) => void;
}

export interface IncomingContext {
  request: JsonRpcRequest;
  /** Aborted when the peer cancels the request or the conversation ends. */
  signal: AbortSignal;
  arrival: Arrival;
}

export interface PeerHandlers {
  request?: (context: IncomingContext) => Promise<JsonObject>;
  notification?: (notification: JsonRpcNotification, arrival: Arrival) => void;
}

interface Pending {
  method: string;
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
  restartTimer?: () => void;
  /** While above zero the timeout is suspended (someone is answering a question for it). */
  holds: number;
  pauseTimer: () => void;
  resumeTimer: () => void;
  progressToken?: string | number;
}

export class Peer {
  #nextId = 1;
  readonly #pending = new Map<RequestId, Pending>();
  readonly #progress = new Map<string | number, (params: JsonObject) => void>();
  readonly #incoming = new Map<RequestId, AbortController>();
  #closed: Error | undefined;
  onclose?: (reason: Error) => void;

  constructor(
    readonly channel: Channel,
    private readonly handlers: PeerHandlers,
    private readonly log: Logger = silentLogger,
    private readonly idPrefix = "",
  ) {
    channel.onmessage = (message, arrival) => this.#receive(message, arrival);
    channel.onclose = (reason) => this.#shutdown(reason ?? new GatewayError("CONNECTION_CLOSED", "connection closed"));
    channel.onlost = (id, reason) => {
      const pending = this.#settle(id);
      if (!pending) return;
      pending.reject(reason);
      // The peer may still be working on it: tell it we stopped waiting.
      this.#tellCancelled(id, reason.message);
    };
  }

  /** How many of our requests are waiting for an answer. */
  get outstanding(): number {
    return this.#pending.size;
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  async start(): Promise<void> {
    await this.channel.start();
  }

  request(method: string, params: JsonObject | undefined, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (options.signal?.aborted) return Promise.reject(cancelled(options.signal));
    const id: RequestId = this.idPrefix ? `${this.idPrefix}${this.#nextId++}` : this.#nextId++;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) };

    return new Promise<JsonObject>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        this.#settle(id)?.reject(cancelled(options.signal));
        this.#tellCancelled(id, "the caller cancelled the request", options.route);
      };
      const startTimer = (): void => {
        if (options.timeoutMs === undefined || pending.holds > 0) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const seconds = Math.round((options.timeoutMs ?? 0) / 100) / 10;
          this.#settle(id)?.reject(new GatewayError("UPSTREAM_TIMEOUT", `${method} got no answer within ${seconds}s`, { method }));
          this.#tellCancelled(id, `timed out after ${seconds}s`, options.route);
        }, options.timeoutMs);
        timer.unref?.();
      };
      const pending: Pending = {
        method,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          if (options.progressToken !== undefined) this.#progress.delete(options.progressToken);
        },
        holds: 0,
        pauseTimer: () => clearTimeout(timer),
        resumeTimer: startTimer,
        ...(options.resetTimeoutOnProgress ? { restartTimer: startTimer } : {}),
        ...(options.progressToken !== undefined ? { progressToken: options.progressToken } : {}),
      };
      this.#pending.set(id, pending);
      if (options.progressToken !== undefined && options.onProgress) {
        const onProgress = options.onProgress;
        this.#progress.set(options.progressToken, (progress) => {
          pending.restartTimer?.();
          onProgress(progress);
        });
      }
      options.signal?.addEventListener("abort", onAbort, { once: true });
      startTimer();
      options.onId?.(id);
      this.channel.send(message, options.route).catch((error: unknown) => this.#settle(id)?.reject(asError(error)));
    });
  }

  async notify(method: string, params?: JsonObject, route?: Route): Promise<void> {
    if (this.#closed) return;
    await this.channel.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }, route);
  }

  /**
   * Suspend the timeout of one of our requests until the returned function is called; the
   * timeout then starts afresh. For calls waiting on a person to answer a question.
   */
  holdTimeout(id: RequestId): () => void {
    const pending = this.#pending.get(id);
    if (!pending) return () => {};
    pending.holds++;
    pending.pauseTimer();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      pending.holds--;
      if (pending.holds === 0 && this.#pending.get(id) === pending) pending.resumeTimer();
    };
  }

  /**
   * Fail one of our requests now, as if the peer had answered it with `error` (its answer
   * arrived but could not be read). False when no request with this id is waiting.
   */
  fail(id: RequestId, error: (method: string) => Error): boolean {
    const pending = this.#settle(id);
    pending?.reject(error(pending.method));
    return pending !== undefined;
  }

  /** The id of our only request waiting for an answer, if exactly one is. */
  get soleOutstanding(): RequestId | undefined {
    if (this.#pending.size !== 1) return undefined;
    return this.#pending.keys().next().value;
  }

  /** Stop working on one of the peer's requests, as if it had sent `notifications/cancelled`. */
  abandon(id: RequestId, reason: string): void {
    this.#stopAnswering(id, reason);
  }

  /** End the conversation: every waiting request fails with `reason`. Idempotent; never throws. */
  async close(reason: Error = new GatewayError("CONNECTION_CLOSED", "connection closed")): Promise<void> {
    this.#shutdown(reason);
    await this.channel.close().catch((error: unknown) => this.log.debug("closing the channel failed", { error }));
  }

  #settle(id: RequestId): Pending | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    pending.cleanup();
    return pending;
  }

  #tellCancelled(requestId: RequestId, reason: string, route?: Route): void {
    this.notify("notifications/cancelled", { requestId, reason }, route).catch(() => {});
  }

  #receive(message: JsonRpcMessage, arrival: Arrival): void {
    if (isResponse(message)) {
      const pending = message.id === null || message.id === undefined ? undefined : this.#settle(message.id);
      if (!pending) {
        this.log.debug("answer to a request that is no longer waiting", { id: message.id });
        return;
      }
      if ("error" in message) pending.reject(RpcError.fromWire(message.error));
      else pending.resolve(message.result);
      return;
    }
    if (isRequest(message)) {
      void this.#answer(message, arrival);
      return;
    }
    const params = isObject(message.params) ? message.params : {};
    if (message.method === "notifications/cancelled") {
      const id = params.requestId;
      if (typeof id === "string" || typeof id === "number") this.#stopAnswering(id, String(params.reason ?? "cancelled"));
      this.handlers.notification?.(message, arrival);
      return;
    }
    if (message.method === "notifications/progress") {
      const token = params.progressToken;
      const listener = typeof token === "string" || typeof token === "number" ? this.#progress.get(token) : undefined;
      if (listener) {
        listener(params);
        return;
      }
    }
    this.handlers.notification?.(message, arrival);
  }

  /** Abort the handler of one of the peer's requests; it gets no answer, which the channel is told at once. */
  #stopAnswering(id: RequestId, reason: string): void {
    const controller = this.#incoming.get(id);
    if (!controller || controller.signal.aborted) return;
    controller.abort(reason);
    this.channel.unanswered?.(id);
  }

  async #answer(request: JsonRpcRequest, arrival: Arrival): Promise<void> {
    const route: Route = { relatedRequestId: request.id };
    if (this.#incoming.has(request.id)) {
      await this.#send(errorResponse(request.id, { code: -32600, message: `Request id ${JSON.stringify(request.id)} is already in use` }), route);
      return;
    }
    const controller = new AbortController();
    this.#incoming.set(request.id, controller);
    try {
      if (!this.handlers.request) throw new RpcError(-32601, `Method not found: ${request.method}`);
      const result = await this.handlers.request({ request, signal: controller.signal, arrival });
      // A cancelled request gets no answer (the peer has stopped waiting for one).
      if (!controller.signal.aborted) await this.#send(resultResponse(request.id, result), route);
    } catch (error) {
      if (controller.signal.aborted) return;
      const wire = toWireError(error);
      if (!(error instanceof RpcError) && !(error instanceof GatewayError)) {
        this.log.error("request handler failed", { method: request.method, error });
      }
      await this.#send(errorResponse(request.id, wire), route);
    } finally {
      this.#incoming.delete(request.id);
    }
  }

  async #send(message: JsonRpcMessage, route: Route): Promise<void> {
    if (this.#closed) return;
    try {
      await this.channel.send(message, route);
    } catch (error) {
      this.log.debug("could not send", { error });
    }
  }

  #shutdown(reason: Error): void {
    if (this.#closed) return;
    this.#closed = reason;
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(reason);
    for (const controller of this.#incoming.values()) controller.abort(reason.message);
    this.onclose?.(reason);
  }
}

function cancelled(signal?: AbortSignal): GatewayError {
  const reason = signal?.reason;
  return new GatewayError("CANCELLED", typeof reason === "string" ? reason : "cancelled");
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
