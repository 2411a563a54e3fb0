/**
 * An upstream that runs as a child process speaking MCP on its stdin/stdout.
 * Its stderr goes to mcpx's log and, line by line, to `onstderr` (the upstream keeps a tail of
 * it to say why the server is down). Shutdown is orderly: close stdin, then SIGTERM, then SIGKILL.
 * Why it ended is told by `ProcessEnd`, alike to the close and to a write the closed pipe refused.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Arrival, Channel } from "../rpc/channel.js";
import { LineReader } from "../rpc/line-reader.js";
import { oversizedReporter, type OversizedMessage, type ReportsOversized } from "../rpc/oversized.js";
import type { ReadLimits } from "./read-limits.js";
import { parseFrame, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";
import type { Logger } from "../util/log.js";
import { within } from "../util/sleep.js";
import { ProcessEnd } from "./process-end.js";

export interface StdioSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

const GRACE_MS = 2_000;
/** How long an exit waits for the rest of stderr (a grandchild may hold the pipe open). */
const STDERR_DRAIN_MS = 250;
/**
 * How long a write the pipe refused waits for the process's exit to be seen, and its reason told
 * (the stderr drain above included); a process that closed its stdin and lives on is reported then.
 */
const EXIT_SEEN_MS = 1_000;

export class StdioChannel implements Channel, ReportsOversized {
  #child: ChildProcessWithoutNullStreams | undefined;
  #exited: Promise<void> = Promise.resolve();
  #closing = false;
  readonly #end = new ProcessEnd();
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onclose?: (reason?: Error) => void;
  onstderr?: (line: string) => void;
  onoversized?: (message: OversizedMessage) => void;

  constructor(
    private readonly spec: StdioSpec,
    private readonly log: Logger,
    private readonly limits: ReadLimits,
  ) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd,
        env: { ...process.env, ...this.spec.env },
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group, so that shutdown reaches what it spawned (npx, shells).
        detached: true,
      });
      this.#child = child;
      const lines = new LineReader(this.limits.maxMessageBytes, {
        line: (text) => {
          const parsed = parseFrame(text);
          if (parsed.ok) this.onmessage?.(parsed.message, {});
          else this.onjunk?.(`unreadable line from upstream: ${parsed.error.message}`);
        },
        oversized: oversizedReporter(this.limits.maxMessageBytes, this.limits.limitName, (message) => this.onoversized?.(message)),
      });
      child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
      const pressure = this.limits.pressure;
      if (pressure) {
        const unsubscribe = pressure.subscribe((blocked) => (blocked ? child.stdout.pause() : child.stdout.resume()));
        if (pressure.blocked) child.stdout.pause();
        child.once("exit", unsubscribe);
      }
      const stderr = new LineReader(64 * 1024, {
        line: (text) => {
          this.log.info("upstream stderr", { stderr: text });
          this.#end.heard(text);
          this.onstderr?.(text);
        },
        oversized: () => {},
      });
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.stderr.on("end", () => stderr.push(Buffer.from("\n"))); // its last line may have no newline
      // An exit is reported once its last words are read, so the reason can quote them.
      const stderrClosed = new Promise<void>((done) => child.stderr.once("close", () => done()));
      child.stdin.on("error", () => {}); // EPIPE when the child is gone; the exit handler reports it.
      this.#exited = new Promise((done) => child.once("exit", () => done()));
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        reject(new GatewayError("UPSTREAM_UNAVAILABLE", `could not start "${this.spec.command}": ${error.message}`));
      });
      child.once("exit", (code, signal) => {
        this.#end.exited(code, signal);
        void within(stderrClosed, STDERR_DRAIN_MS, undefined).then(() => {
          // Told before the close, and the close before any refused write hears it: the peer is closed by then.
          const reason = this.#end.tell();
          this.onclose?.(this.#closing ? undefined : reason);
        });
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const child = this.#child;
    if (!child) return Promise.reject(new GatewayError("UPSTREAM_UNAVAILABLE", "the server process is not running"));
    if (child.exitCode !== null || child.signalCode !== null || !child.stdin.writable) return this.#refused(child);
    return new Promise((resolve, reject) => {
      child.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? this.#refused(child, error).catch(reject) : resolve()));
    });
  }

  /**
   * A write the closed pipe refused. The process closes its pipes as it exits, and on a busy
   * machine the broken pipe may be seen before the exit: the exit's reason (quoting what the
   * process said was wrong) is the better one, so it is waited for, a moment at most.
   */
  async #refused(child: ChildProcessWithoutNullStreams, cause?: Error): Promise<never> {
    const reason = await this.#end.whyGone(EXIT_SEEN_MS);
    if (reason) throw reason;
    const running = child.exitCode === null && child.signalCode === null;
    const why = running ? `does not read its stdin${cause ? ` (${cause.message})` : ""}` : "is not running";
    throw new GatewayError("UPSTREAM_UNAVAILABLE", `the server process ${why}`);
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.#closing = true;
    const exitsInGrace = (): Promise<boolean> =>
      within(
        this.#exited.then(() => true),
        GRACE_MS,
        false,
      );
    child.stdin.end();
    if (await exitsInGrace()) return;
    signalGroup(child, "SIGTERM");
    if (await exitsInGrace()) return;
    signalGroup(child, "SIGKILL");
    await this.#exited;
  }
}

function signalGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
