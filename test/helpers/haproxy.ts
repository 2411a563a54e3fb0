/**
 * HAProxy in front of loopback backends, for the tests of several mcpx instances: HTTP mode,
 * round robin with no stickiness by default (each request may go to another backend, the hard
 * case for mcpx; stickiness on a header is an option), a backend that stops answering taken out by health checks and its requests sent to
 * another, long streams (SSE) allowed. The config is written to a temp dir; tests that need it
 * skip when haproxy is not installed (`describe.skipIf(!haproxyInstalled)`).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server.js";

export const haproxyInstalled = spawnSync("haproxy", ["-v"], { stdio: "ignore" }).status === 0;

export interface HaproxyOptions {
  /** How often each backend is health-checked (a TCP connect); a backend down twice in a row is taken out. */
  checkIntervalMs?: number;
  /**
   * Stick on a header (the lines docs/deploying.md may show for `Mcp-Session-Id`): the backend
   * that first answered with it gets every request that carries the same value. Absent: none.
   */
  stickOnHeader?: string;
}

export class Haproxy {
  #process: ChildProcess | undefined;
  #log = "";

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  /** Start it on a free loopback port in front of `backends` (loopback ports). */
  static async start(backends: number[], options: HaproxyOptions = {}): Promise<Haproxy> {
    const proxy = new Haproxy(await freePort(), mkdtempSync(join(tmpdir(), "mcpx-haproxy-")));
    const config = join(proxy.dir, "haproxy.cfg");
    writeFileSync(config, haproxyConfig(proxy.port, backends, options));
    const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
    proxy.#process = child;
    child.stdout?.on("data", (chunk: Buffer) => (proxy.#log += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (proxy.#log += chunk.toString()));
    const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`haproxy exited (${code}):\n${proxy.#log}`))));
    await Promise.race([untilListening(proxy.port), exited]);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get log(): string {
    return this.#log;
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function haproxyConfig(port: number, backends: number[], options: HaproxyOptions = {}): string {
  const checkIntervalMs = options.checkIntervalMs ?? 500;
  const header = options.stickOnHeader?.toLowerCase();
  const sticky = header
    ? ["  stick-table type string len 128 size 100k expire 30m", `  stick on req.hdr(${header})`, `  stick store-response res.hdr(${header})`]
    : [];
  return [
    "global",
    "  maxconn 1000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    // An SSE stream or a long call may stay open without a byte for a while.
    "  timeout tunnel 1h",
    // A request to a backend that refused the connection goes to another.
    "  option redispatch",
    "  retries 2",
    "frontend mcpx",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    ...sticky,
    ...backends.map((backend, i) => `  server instance${i} 127.0.0.1:${backend} check inter ${checkIntervalMs} fall 2 rise 1`),
    "",
  ].join("\n");
}

/** Resolves once something accepts connections on the port (bounded). */
async function untilListening(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
