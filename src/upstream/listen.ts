/**
 * The `subscriptions/listen` stream mcpx keeps open to a 2026-07-28 upstream: how it hears of
 * list changes and of updates to the resources hosts subscribed to (the 2026 replacement of
 * unsolicited list_changed notifications and `resources/subscribe`).
 *
 * One stream per connection, opted in to the list changes the server's capabilities offer and
 * to every resource some host subscribed to. A change of the resource set opens a new stream
 * first and closes the old one once the new one is acknowledged, so no update falls between
 * them. A stream that breaks is opened again (with backoff) and the catalogue re-read, since
 * changes may have been missed meanwhile; a server that refuses to listen is left alone.
 */
import { RpcError } from "../protocol/errors.js";
import { isObject, type JsonObject, type JsonRpcNotification, type RequestId } from "../protocol/jsonrpc.js";
import { META, withoutMetaKeys } from "../protocol/modern.js";
import type { RequestOptions } from "../rpc/peer.js";
import type { Logger } from "../util/log.js";
import { sleep, within } from "../util/sleep.js";

export interface ListenDeps {
  /** Send the request (the envelope is added by the caller's side). */
  request(params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** The server's capabilities, read when a stream opens. */
  capabilities(): JsonObject;
  /** The upstream URIs hosts are subscribed to. */
  resources(): ReadonlySet<string>;
  /** A stream was opened again after one broke: what it would have said may have been missed. */
  reopened(): void;
  log: Logger;
  /** How long opening waits for the server's acknowledgement. */
  ackTimeoutMs: number;
}

interface Stream {
  stop: AbortController;
  id?: RequestId;
  acknowledged: Promise<void>;
  ack: () => void;
}

const MAX_BACKOFF_MS = 30_000;

export class Listen {
  #current: Stream | undefined;
  #closed = false;
  #failures = 0;
  readonly #closer = new AbortController();

  constructor(private readonly deps: ListenDeps) {}

  /** The filter a stream opens with now: empty when there is nothing to hear. */
  filter(): JsonObject {
    const capabilities = this.deps.capabilities();
    const offers = (part: string): boolean => isObject(capabilities[part]) && (capabilities[part] as JsonObject).listChanged === true;
    const resources = [...this.deps.resources()];
    return {
      ...(offers("tools") ? { toolsListChanged: true } : {}),
      ...(offers("prompts") ? { promptsListChanged: true } : {}),
      ...(offers("resources") ? { resourcesListChanged: true } : {}),
      ...(resources.length ? { resourceSubscriptions: resources } : {}),
    };
  }

  /**
   * Open (or replace) the stream with the current filter; resolves once acknowledged, or after
   * `waitMs` (the acknowledgement timeout unless told): a host's subscribe waits only briefly for a
   * server that does not acknowledge, since waiting longer would change nothing for it.
   */
  async update(waitMs = this.deps.ackTimeoutMs): Promise<void> {
    if (this.#closed) return;
    const previous = this.#current;
    const filter = this.filter();
    if (Object.keys(filter).length === 0) {
      this.#current = undefined;
      previous?.stop.abort();
      return;
    }
    const stream = this.#open(filter);
    await within(stream.acknowledged, Math.min(waitMs, this.deps.ackTimeoutMs), undefined);
    previous?.stop.abort();
  }

  /** `notifications/subscriptions/acknowledged` for the stream opened under `id`. */
  acknowledged(id: unknown, params: JsonObject): void {
    const stream = this.#current;
    if (!stream || !sameId(stream.id, id)) return;
    this.#failures = 0;
    this.deps.log.debug("the server is listening", { notifications: params.notifications });
    stream.ack();
  }

  /** Is `id` the request of a listen stream (its notifications come with it)? */
  owns(id: unknown): boolean {
    return this.#current !== undefined && sameId(this.#current.id, id);
  }

  close(): void {
    this.#closed = true;
    this.#closer.abort();
    this.#current?.stop.abort();
    this.#current = undefined;
  }

  #open(filter: JsonObject): Stream {
    let ack = (): void => {};
    const acknowledged = new Promise<void>((resolve) => (ack = resolve));
    const stream: Stream = { stop: new AbortController(), acknowledged, ack };
    this.#current = stream;
    this.deps.request({ notifications: filter }, { signal: stream.stop.signal, onId: (id) => (stream.id = id) }).then(
      () => this.#ended(stream, undefined),
      (error: unknown) => this.#ended(stream, error),
    );
    return stream;
  }

  #ended(stream: Stream, error: unknown): void {
    stream.ack(); // nobody waits on a stream that is over
    if (stream !== this.#current || this.#closed || stream.stop.signal.aborted) return;
    this.#current = undefined;
    if (error instanceof RpcError) {
      this.deps.log.warn("the server refused subscriptions/listen; its list changes and resource updates will not be heard", {
        error: error.message,
        code: error.code,
      });
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** this.#failures++);
    this.deps.log.info("the listen stream ended; listening again", { inMs: delay, ...(error instanceof Error ? { reason: error.message } : {}) });
    void sleep(delay, this.#closer.signal).then(() => {
      if (this.#closed || this.#current) return;
      void this.update().then(() => this.deps.reopened());
    });
  }
}

/**
 * Is `tag` (a notification's subscription id) the id of the listen request `id`? Servers echo the
 * request's id, some as a string (the conformance repository's reference server sends
 * `String(id)`): mcpx's ids are its own, so "5" and 5 name the same stream.
 */
function sameId(id: RequestId | undefined, tag: unknown): boolean {
  return id !== undefined && (tag === id || ((typeof tag === "string" || typeof tag === "number") && String(tag) === String(id)));
}

/**
 * A notification from a modern server as hosts may see it: a listen stream's acknowledgement
 * goes to `listen` (undefined back), and any other loses the subscription id that says which of
 * mcpx's streams carried it (this connection's business, not the hosts').
 */
export function fromListenStream(received: JsonRpcNotification, listen: Listen | undefined): JsonRpcNotification | undefined {
  if (!isObject(received.params)) return received;
  const subscription = isObject(received.params._meta) ? received.params._meta[META.subscriptionId] : undefined;
  if (received.method === "notifications/subscriptions/acknowledged") {
    listen?.acknowledged(subscription, received.params);
    return undefined;
  }
  return { ...received, params: withoutMetaKeys(received.params, [META.subscriptionId]) };
}
