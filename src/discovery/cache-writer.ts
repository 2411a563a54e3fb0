/**
 * Keeps the schema cache up to date for a process that reads catalogues (the gateway of
 * `serve`, `call`, `refresh`, a first `ls`). Told of each successful read and each failed one;
 * writes them in the background, the latest per server definition, so a catalogue change never
 * waits on the disk. A failed read never replaces a good one: it is noted beside it.
 */
import type { ServerConfig } from "../config/types.js";
import type { Logger } from "../util/log.js";
import { type CacheEntry, ENTRY_VERSION } from "./cache-entry.js";
import { entriesDir, entryFile, keepNewest, writePrivateAtomically } from "./cache-files.js";
import { definitionOf, serverKey } from "./cache-key.js";
import { buildRead } from "./cache-build.js";
import { readEntry } from "./cache-read-entry.js";
import { moveGeneration } from "./cache-summary.js";
import type { CatalogueSnapshot } from "./cache-snapshot.js";

type Job = { server: ServerConfig; at: Date } & ({ snapshot: CatalogueSnapshot } | { failure: string });

/** Entries kept at most; the least recently written go first (definitions that changed leave old ones behind). */
export const MAX_ENTRIES = 500;

export class CacheWriter {
  /** The latest news per definition key, not yet written. */
  readonly #pending = new Map<string, Job>();
  #running: Promise<void> | undefined;

  constructor(
    readonly stateDir: string,
    private readonly log: Logger,
  ) {}

  /** The server's catalogue was read successfully. */
  read(server: ServerConfig, snapshot: CatalogueSnapshot): void {
    this.#queue({ server, at: new Date(), snapshot });
  }

  /** Reading the server's catalogue failed (it did not start, or stopped answering). */
  failed(server: ServerConfig, reason: string): void {
    this.#queue({ server, at: new Date(), failure: reason });
  }

  /** Resolves once everything told so far is on disk (or has failed to get there, logged). */
  async flush(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
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
    writePrivateAtomically(entryFile(this.stateDir, key), JSON.stringify(entry));
    moveGeneration(this.stateDir);
    if (!previous) keepNewest(entriesDir(this.stateDir), MAX_ENTRIES);
  }
}
