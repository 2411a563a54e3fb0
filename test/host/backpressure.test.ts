/**
 * Issue 7, item 1: a host that stops reading does not make mcpx buffer whatever upstreams send.
 * A real `mcpx serve` child whose stdout the test stops reading; mcpx's resident memory is read
 * from /proc while an upstream floods it; once the test reads again, the call completes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { MCPX_BIN, nodeServer, writeConfig } from "../helpers/mcpx.js";
import { logRecords } from "../helpers/upstreams.js";

const MB = 1024 * 1024;
/**
 * What mcpx may grow by while its host is not reading. Today it grows by more than what is sent
 * (380 MB for the 100 MB flood below); the bound leaves room for the garbage that parsing
 * 100 MB of JSON leaves until V8 collects it.
 */
const GROWTH_BOUND = 96 * MB;

type Frame = Record<string, unknown>;

/** `mcpx serve` over stdio, read by hand so that the test can stop reading it. */
class PausableHost {
  readonly child: ChildProcessWithoutNullStreams;
  readonly frames: Frame[] = [];
  log = "";
  /** The bytes of the frame being received, up to the newline that ends it. */
  #partial: Buffer[] = [];
  #waiters: Array<() => void> = [];
  #peak = 0;
  #sampler: NodeJS.Timeout;

  constructor(config: { file: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(process.execPath, [MCPX_BIN, "serve", "--config", config.file], { env: config.env, stdio: ["pipe", "pipe", "pipe"] });
    // Only each new chunk is searched for the newline: searching the whole frame each time is
    // quadratic in a 3 MB answer, and took most of this file's time.
    this.child.stdout.on("data", (chunk: Buffer) => {
      let start = 0;
      let at: number;
      while ((at = chunk.indexOf(0x0a, start)) !== -1) {
        this.#partial.push(chunk.subarray(start, at));
        this.frames.push(JSON.parse(Buffer.concat(this.#partial).toString("utf8")) as Frame);
        this.#partial = [];
        start = at + 1;
      }
      if (start < chunk.length) this.#partial.push(chunk.subarray(start));
      this.#wake();
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.log += chunk.toString("utf8");
      this.#wake();
    });
    // mcpx's resident memory, sampled throughout, so that a peak between two checks is seen.
    this.#sampler = setInterval(() => (this.#peak = Math.max(this.#peak, this.rss())), 20);
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  rss(): number {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, "utf8"));
      return match ? Number(match[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  }

  /** The highest resident memory seen since the last call. */
  takePeak(): number {
    const peak = Math.max(this.#peak, this.rss());
    this.#peak = 0;
    return peak;
  }

  send(frame: object): void {
    this.child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never saw ${what}; log tail:\n${this.log.slice(-1500)}`)), timeoutMs);
      const check = (): void => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else this.#waiters.push(check);
      };
      check();
    });
  }

  async answer(id: string | number): Promise<Frame> {
    await this.until(() => this.frames.some((frame) => frame.id === id && !("method" in frame)), `the answer to ${id}`);
    return this.frames.find((frame) => frame.id === id && !("method" in frame))!;
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "paused-host", version: "1" } },
    });
    await this.answer("init");
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async close(): Promise<void> {
    clearInterval(this.#sampler);
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdout.resume();
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 8_000);
    await exited;
    clearTimeout(timer);
  }
}

const text = (frame: Frame): string => (frame.result as { content: Array<{ text: string }> }).content[0]!.text;

describe("a host that stops reading (stdio)", () => {
  let host: PausableHost | undefined;
  afterEach(async () => host?.close());

  it("keeps mcpx's memory bounded through a flood of log notifications, dropping and counting them", async () => {
    host = new PausableHost(writeConfig({ mcpServers: { bulky: nodeServer("bulky-server.mjs") } }));
    await host.initialize();
    const baseline = host.takePeak();
    host.child.stdout.pause();
    // 100,000 log notifications of 1 kB: 100 MB that the host does not read.
    host.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "bulky__flood", arguments: { count: 100_000, bytes: 1000 } } });
    await host.until(() => host!.log.includes("bulky-server: flooded 100000"), "the upstream finish its flood", 60_000);
    expect(host.takePeak() - baseline).toBeLessThan(GROWTH_BOUND);

    host.child.stdout.resume();
    expect(text(await host.answer(1))).toBe("flooded");
    host.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect((await host.answer(2)).result).toEqual({});
    await host.until(() => host!.log.includes("log and progress notifications were dropped"), "the drop count logged");
    const [dropped] = logRecords(host.log).filter((record) => record.msg.includes("notifications were dropped"));
    expect(dropped).toMatchObject({ stream: "stdout" });
    const count = Number(dropped!.dropped);
    const delivered = host.frames.filter((frame) => frame.method === "notifications/message").length;
    expect(count).toBeGreaterThan(50_000);
    expect(count + delivered).toBe(100_000);
  }, 90_000);

  it("stops reading upstreams for answers it must keep, and delivers every one once the host reads again", async () => {
    host = new PausableHost(writeConfig({ mcpServers: { bulky: nodeServer("bulky-server.mjs") } }));
    await host.initialize();
    const baseline = host.takePeak();
    host.child.stdout.pause();
    // 50 answers of 3 MB: 150 MB of what cannot be dropped.
    for (let id = 1; id <= 50; id++) {
      host.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "bulky__blob", arguments: { bytes: 3 * MB } } });
    }
    await host.until(() => host!.log.includes("upstreams are not read until it catches up"), "mcpx stop reading upstreams");
    expect(host.takePeak() - baseline).toBeLessThan(GROWTH_BOUND);

    host.child.stdout.resume();
    for (let id = 1; id <= 50; id++) expect(text(await host.answer(id))).toHaveLength(3 * MB);
  }, 90_000);
});
