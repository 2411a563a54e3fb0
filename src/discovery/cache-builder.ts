/**
 * Where a cache entry's read is made: in a child process (cache-build-worker.ts) kept while
 * there is work and a little after, so the tokenizer loads once per burst of catalogue reads,
 * never on the caller's event loop nor in its memory. Where no compiled worker exists (sources
 * run directly, as in tests) or the worker fails, the read is made in this process.
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CatalogueRead } from "./cache-entry.js";
import type { BuildRequest } from "./cache-build-worker.js";
import type { CatalogueSnapshot } from "./cache-snapshot.js";

/** How long an idle worker is kept for the next read (a server restarting, the next list_changed). */
const IDLE_MS = 5_000;

type Answer = { id: number; read?: CatalogueRead; error?: string };

export class CacheBuilder {
  #worker: ChildProcess | undefined;
  #idle: NodeJS.Timeout | undefined;
  #nextId = 0;
  readonly #waiting = new Map<number, { resolve: (read: CatalogueRead) => void; reject: (error: Error) => void }>();
  readonly #workerFile = fileURLToPath(new URL("./cache-build-worker.js", import.meta.url));

  async build(server: string, snapshot: CatalogueSnapshot, readAt: Date, previous?: CatalogueRead): Promise<CatalogueRead> {
    const worker = this.#workerFor();
    if (worker) {
      try {
        return await this.#ask(worker, { id: this.#nextId++, server, snapshot, readAt: readAt.toISOString(), ...(previous ? { previous } : {}) });
      } catch {
        // A worker that failed: this one read is made here instead.
      }
    }
    const { buildRead } = await import("./cache-build.js");
    return buildRead(server, snapshot, readAt, previous);
  }

  /** Stop the worker now (a gateway that stops). */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker?.connected) worker.disconnect(); // it exits when its channel closes
    worker?.kill();
  }

  #workerFor(): ChildProcess | undefined {
    if (this.#worker) return this.#worker;
    if (!this.#workerFile.endsWith(".js") || !existsSync(this.#workerFile)) return undefined;
    const worker = fork(this.#workerFile, [], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced" });
    // Never what keeps this process alive.
    worker.unref();
    worker.channel?.unref();
    worker.on("message", (answer: Answer) => {
      const waiter = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if (this.#waiting.size === 0) worker.channel?.unref();
      if (answer.read) waiter?.resolve(answer.read);
      else waiter?.reject(new Error(answer.error ?? "the cache worker gave no answer"));
      this.#idleLater();
    });
    const fail = (error: Error): void => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const waiter of this.#waiting.values()) waiter.reject(error);
      this.#waiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", () => fail(new Error("the cache worker exited")));
    this.#worker = worker;
    return worker;
  }

  #ask(worker: ChildProcess, request: BuildRequest): Promise<CatalogueRead> {
    clearTimeout(this.#idle);
    return new Promise((resolve, reject) => {
      this.#waiting.set(request.id, { resolve, reject });
      worker.channel?.ref(); // held open while an answer is awaited
      worker.send(request, (error) => {
        if (error) reject(error);
      });
    });
  }

  #idleLater(): void {
    if (this.#waiting.size > 0) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), IDLE_MS);
    this.#idle.unref();
  }
}
