/**
 * A real redis-server for the tests: on 127.0.0.1, a free port, its own temp directory, no
 * RDB snapshots, the AOF on or off. It can be stopped (politely, or killed as a crash would)
 * and started again on the same port and directory. Tests that need it skip when
 * redis-server is not installed (`describe.skipIf(!redisInstalled)`).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const redisInstalled = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

export interface RedisServerOptions {
  /** The AOF (`appendonly yes`), fsynced on every write so even a kill -9 loses nothing. */
  appendonly?: boolean;
  /** `requirepass`: clients must give it (in the URL). */
  password?: string;
}

/** A port nobody listens on now (the kernel's pick, freed again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export class RedisServer {
  #process: ChildProcess | undefined;
  #log = "";

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisServerOptions,
  ) {}

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "mcpx-redis-")), options);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://${this.options.password ? `:${this.options.password}@` : ""}127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#process !== undefined;
  }

  /** What the server wrote to its log (stdout). */
  get log(): string {
    return this.#log;
  }

  /** Start it (again) on the same port and directory; resolves once it accepts connections. */
  async restart(): Promise<void> {
    if (this.#process) throw new Error("redis-server is already running");
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", "", "--daemonize", "no", "--loglevel", "notice"];
    if (this.options.password) args.push("--requirepass", this.options.password);
    args.push(...(this.options.appendonly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]));
    // The AOF's base (an RDB) uncompressed, so a test can look for a value in the files.
    args.push("--rdbcompression", "no");
    const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    this.#process = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${this.#log}`)), 10_000);
      const read = (chunk: Buffer): void => {
        this.#log += chunk.toString();
        if (this.#log.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", read);
      child.stderr?.on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}) before it was ready:\n${this.#log}`));
      });
    });
    child.once("exit", () => {
      if (this.#process === child) this.#process = undefined;
    });
  }

  /** Stop it: SIGTERM (Redis shuts down cleanly) or SIGKILL (a crash). Its directory stays for a restart. */
  async stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
    const child = this.#process;
    if (!child) return;
    this.#log = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    await exited;
    this.#process = undefined;
  }

  /** Freeze it (SIGSTOP): connections stay open and nothing answers, as a hung or unreachable host. */
  pause(): void {
    this.#process?.kill("SIGSTOP");
  }

  resume(): void {
    this.#process?.kill("SIGCONT");
  }

  /** Stop it and remove its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
