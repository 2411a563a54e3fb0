/**
 * `GET /v1/events`: a server-sent event stream with one `question` event (the question's view)
 * whenever a question is opened or settled, in this process or any other sharing the store.
 *
 * Each client hears only of its own identity's questions (broker/identity.ts): another
 * identity's are never sent to it, opened or settled.
 *
 * This process's own questions arrive at once through `broker.subscribe`. Other processes'
 * (and instances') are noticed through the store: a diff of the pending set whenever it says
 * another wrote (`BrokerStore.onChange`), while any client listens.
 */
import type { ServerResponse } from "node:http";
import type { Broker } from "../broker/broker.js";
import type { QuestionRecord } from "../broker/types.js";
import { identityOf } from "../broker/identity.js";
import type { Logger } from "../util/log.js";
import { coalesced } from "../util/coalesce.js";
import { formatSse } from "../util/sse.js";

const KEEPALIVE_MS = 15_000;
const RETRY_MS = 2_000;

export class QuestionEvents {
  /** Each client's response, and the identity it hears for. */
  readonly #clients = new Map<ServerResponse, string>();
  /** Ids of the questions known to be pending, to tell what changed. */
  #pending = new Set<string>();
  #unlisten: (() => void) | undefined;
  /** The next read only learns what is pending (a client that comes is not sent what was pending before). */
  #seeding = false;
  #keepalive: NodeJS.Timeout | undefined;
  /** The events on their way, one after another. */
  #sending: Promise<void> = Promise.resolve();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly broker: Broker,
    private readonly log: Logger,
  ) {
    this.#unsubscribe = broker.subscribe((record) => this.#noted(record));
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** Serve one event stream, of `identity`'s questions, until the client goes away. */
  stream(response: ServerResponse, identity: string): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    response.write(`retry: ${RETRY_MS}\n: mcpx question events\n\n`);
    if (this.#clients.size === 0) this.#begin();
    this.#clients.set(response, identity);
    const gone = (): void => {
      if (!this.#clients.delete(response)) return;
      if (this.#clients.size === 0) this.#end();
    };
    // The response's close (not the request's, which fires once the empty body is read).
    response.once("close", gone);
  }

  close(): void {
    this.#unsubscribe();
    for (const client of this.#clients.keys()) client.end();
    this.#clients.clear();
    this.#end();
  }

  #begin(): void {
    // Listening before reading: a write between the two is heard, not missed.
    this.#unlisten = this.broker.store.onChange(() => this.#changed());
    this.#seeding = true;
    this.#changed();
    this.#keepalive = setInterval(() => this.#send(": keepalive\n\n"), KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  #end(): void {
    this.#unlisten?.();
    clearInterval(this.#keepalive);
    this.#unlisten = this.#keepalive = undefined;
  }

  /** The store changed: one diff at a time, and one more if it changed again meanwhile. */
  readonly #changed = coalesced(
    () => this.#diff(),
    (error) => this.log.warn("question events: reading the store failed", { error }),
  );

  async #diff(): Promise<void> {
    const store = this.broker.store;
    if (!store.open) return;
    const now = await store.questions.list(false);
    if (this.#seeding) {
      this.#seeding = false;
      this.#pending = new Set(now.map((record) => record.id));
      return;
    }
    const stillPending = new Set(now.map((record) => record.id));
    for (const record of now) if (!this.#pending.has(record.id)) this.#noted(record);
    for (const id of [...this.#pending]) {
      if (stillPending.has(id)) continue;
      const record = await store.questions.get(id);
      if (record) this.#noted(record);
      else this.#pending.delete(id);
    }
  }

  /** A question was opened or settled: tell every client once. */
  #noted(record: QuestionRecord): void {
    if (record.state === "pending") {
      if (this.#pending.has(record.id)) return;
      this.#pending.add(record.id);
    } else {
      this.#pending.delete(record.id);
    }
    if (this.#clients.size === 0) return;
    // In the order they happened, each with its delivery by the store's liveness.
    this.#sending = this.#sending
      .then(() => this.broker.view(record))
      .then(
        (view) => this.#send(formatSse(JSON.stringify(view), { event: "question" }), identityOf(record)),
        (error: unknown) => this.log.warn("a question's event could not be made", { error, questionId: record.id }),
      );
  }

  /** To every client, or (`identity`) to that identity's only. */
  #send(text: string, identity?: string): void {
    for (const [client, hears] of this.#clients) if (identity === undefined || hears === identity) client.write(text);
  }
}
