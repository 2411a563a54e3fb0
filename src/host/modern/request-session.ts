/**
 * A modern request's host: the per-request profile (revision and capabilities from its `_meta`)
 * over the connection it came on. It lives as long as the request, or for a multi round-trip
 * call as long as the call; it is never in the gateway's sessions (it hears no broadcasts).
 */
import { RpcError } from "../../protocol/errors.js";
import { ErrorCode, isObject, type JsonObject, type JsonRpcRequest, type RequestId } from "../../protocol/jsonrpc.js";
import type { Route } from "../../rpc/channel.js";
import type { Peer, RequestOptions } from "../../rpc/peer.js";
import { HostSession } from "../session.js";
import type { Envelope } from "./envelope.js";
import { MODERN_ERROR } from "../../protocol/modern.js";

let counter = 0;

/** Where a modern call takes the questions asked of its host (see mrtr.ts). */
export interface InputSink {
  ask(inputKey: string, method: string, params: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject>;
  /** End the call with this error now (the upstream call is cancelled). */
  fail(error: RpcError): void;
}

export class ModernRequestSession extends HostSession {
  /** Set while the request is a multi round-trip call that can carry questions. */
  sink: InputSink | undefined;

  constructor(
    readonly base: HostSession,
    envelope: Envelope,
  ) {
    super(base.peer, base.transport, `${base.id}~${++counter}`);
    this.identity = base.identity;
    this.profileName = base.profileName;
    this.apply(envelope);
  }

  /** The call's first request, and the one being answered now (a retry is a new request). */
  #first: RequestId | undefined;
  /** Set from the first retry on. */
  #current: { id: RequestId; progressToken: unknown; peer: Peer } | undefined;

  /**
   * The request of the call that is open now: what the call sends its host (progress, log
   * messages) goes on it, with its own progress token, not on the first round's, long answered.
   */
  follow(request: JsonRpcRequest, on: HostSession): void {
    if (this.#first === undefined) {
      this.#first = request.id;
      return;
    }
    const meta = isObject(request.params?._meta) ? request.params._meta : undefined;
    this.#current = { id: request.id, progressToken: meta?.progressToken, peer: on.peer };
  }

  override notify(method: string, params: JsonObject | undefined, route?: Route): void {
    const current = this.#current;
    if (!current || route?.relatedRequestId === undefined || route.relatedRequestId !== this.#first) {
      super.notify(method, params, route);
      return;
    }
    if (method === "notifications/progress") {
      // The retry asked for no progress: there is no token to send it under.
      if (typeof current.progressToken !== "string" && typeof current.progressToken !== "number") return;
      params = { ...params, progressToken: current.progressToken };
    }
    this.notifyOn(current.peer, method, params, { relatedRequestId: current.id });
  }

  /** Take this request's envelope: what a retry declares replaces what the last round declared. */
  apply(envelope: Envelope): void {
    this.revision = envelope.revision;
    this.capabilities = envelope.capabilities;
    this.clientInfo = envelope.clientInfo;
    this.logLevel = envelope.logLevel;
  }

  override get servesOneRequest(): boolean {
    return true;
  }

  /**
   * stdio: the process is one host, so a per-host server's connection is the process's.
   * HTTP: there is no session, so the request (or call) gets its own, stopped with it.
   */
  override get connectionScope(): HostSession {
    return this.transport === "stdio" ? this.base : this;
  }

  /** Without a `logLevel` in the request's `_meta`, no log message may be sent for it. */
  override wantsLog(level: unknown): boolean {
    return this.logLevel !== undefined && super.wantsLog(level);
  }

  /** The spec's answer to a request that needs an undeclared capability: -32021, naming it. */
  override lacksCapabilities(required: JsonObject, why: string): void {
    this.sink?.fail(
      new RpcError(MODERN_ERROR.MissingRequiredClientCapability, `Missing required client capability: ${why}`, { requiredCapabilities: required }),
    );
  }

  override askInline(inputKey: string, method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    if (!this.sink) {
      // An RpcError: the host refused, so the question stays open for other answerers.
      return Promise.reject(new RpcError(ErrorCode.InternalError, "a 2026-07-28 host is asked only on tools/call, prompts/get and resources/read"));
    }
    return this.sink.ask(inputKey, method, params, options.signal);
  }
}
