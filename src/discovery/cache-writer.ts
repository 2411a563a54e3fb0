/**
 * Keeps the schema cache up to date for a process that reads catalogues (the gateway of
 * `serve`, `call`, `refresh`, a first `ls`). Told of each successful read and each failed one;
 * writes them in the background, the latest per server definition, so a catalogue change never
 * waits on the disk. A failed read never replaces a good one: it is noted beside it.
 *
 * Given a shared store (several instances on Redis), each good read written is put there too
 * (cache-shared.ts: without the definition), without holding up the next write; a store that
 * fails is logged, and the files here are as they would be without it.
 */
import type { ServerConfig } from "../config/types.js";
import type { Logger } from "../util/log.js";
import { type CacheEntry, ENTRY_VERSION } from "./cache-entry.js";
import { definitionOf, serverKey } from "./cache-key.js";
import { buildRead } from "./cache-build.js";
import { readEntry } from "./cache-read-entry.js";
import { saveEntry } from "./cache-save.js";
import { type SharedSchemas, sharedForm } from "./cache-shared.js";
import type { CatalogueSnapshot } from "./cache-snapshot.js";

export { MAX_ENTRIES } from "./cache-save.js";

type Job = { server: ServerConfig; at: Date } & ({ snapshot: CatalogueSnapshot } | { failure: string });

export class CacheWriter {
  /** The latest news per definition key, not yet written. */
  readonly #pending = new Map<string, Job>();
  #running: Promise<void> | undefined;
  /** Puts in the shared store not yet answered. */
  readonly #publishing = new Set<Promise<void>>();

  constructor(
    readonly stateDir: string,
    private readonly log: Logger,
    /** The store several instances share, when there is one. */
    private readonly shared?: SharedSchemas,
  ) {}

  /** The server's catalogue was read successfully. */
  read(server: ServerConfig, snapshot: CatalogueSnapshot): void {
    this.#queue({ server, at: new Date(), snapshot });
  }

  /** Reading the server's catalogue failed (it did not start, or stopped answering). */
  failed(server: ServerConfig, reason: string): void {
    this.#queue({ server, at: new Date(), failure: reason });
  }

  /** Resolves once everything told so far is on disk, and in the shared store (or has failed to get there, logged). */
  async flush(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    while (this.#publishing.size > 0) await Promise.all(this.#publishing);
  }

  #queue(job: Job): void {
    this.#pending.set(serverKey(job.server), job);
    this.#kick();
  }

  #kick(): void {
    if (this.#running !== undefined || this.#pending.size === 0) return;
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      this.#kick(); // news that came as the last write finished
    });
  }

  async #drain(): Promise<void> {
    // Off the path that noticed the change: whatever it was doing goes first.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [key, job] of this.#pending) {
      this.#pending.delete(key);
      try {
        await this.#write(key, job);
      } catch (error) {
        this.log.warn("could not write the schema cache; discovery commands will read this server again", { server: job.server.name, error });
      }
    }
  }

  async #write(key: string, job: Job): Promise<void> {
    const definition = definitionOf(job.server);
    const previous = readEntry(this.stateDir, key, definition);
    const entry: CacheEntry = { version: ENTRY_VERSION, key, server: job.server.name, definition };
    if ("snapshot" in job) {
      entry.read = buildRead(job.server.name, job.snapshot, job.at, previous?.read);
    } else {
      if (previous?.read) entry.read = previous.read;
      entry.failure = { at: job.at.toISOString(), reason: job.failure };
    }
    saveEntry(this.stateDir, entry, !previous);
    if ("snapshot" in job) this.#publish(entry);
  }

  /** Put the entry in the shared store in the background; a failure is logged, never thrown. */
  #publish(entry: CacheEntry): void {
    const shared = this.shared && sharedForm(entry);
    if (!this.shared || !shared || !entry.read) return;
    const put = this.shared
      .put(shared.key, shared.text, Date.parse(entry.read.readAt))
      .then(
        () => undefined,
        (error: unknown) =>
          this.log.warn("could not put the schema cache entry in the shared store; other instances will read this server themselves", {
            server: entry.server,
            error,
          }),
      )
      .finally(() => this.#publishing.delete(put));
    this.#publishing.add(put);
  }
}
