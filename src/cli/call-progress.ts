/**
 * The upstream's progress during `mcpx call`, shown on stderr as hosts see it. The call runs in
 * a detached process (run-call.ts): it keeps the latest progress in a small file beside the
 * call's log, and the command following the call (follow-call.ts) shows it: a bar redrawn in
 * place when stderr is a terminal and the server sends totals, a line with its message
 * otherwise; off a terminal, plain lines at a bounded rate. Upstream text is printed inert.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { inert } from "./inert.js";

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Where a call's latest progress is kept (in the private `calls/` directory). */
export function progressFile(callsDir: string, callId: string): string {
  return join(callsDir, `${callId}.progress`);
}

/** The progress in a `notifications/progress`'s params, if they carry one. */
export function progressOf(params: JsonObject): Progress | undefined {
  if (typeof params.progress !== "number" || !Number.isFinite(params.progress)) return undefined;
  return {
    progress: params.progress,
    ...(typeof params.total === "number" && Number.isFinite(params.total) && params.total > 0 ? { total: params.total } : {}),
    ...(typeof params.message === "string" ? { message: params.message.slice(0, MAX_MESSAGE) } : {}),
  };
}

const MAX_MESSAGE = 200;
/** The runner writes at most this often; the last state is always written (`flush`). */
const WRITE_EVERY_MS = 100;

/** The runner's side: keep the latest progress in the file, written whole (rename), at a bounded rate. */
export class ProgressRecorder {
  #latest: Progress | undefined;
  #written: Progress | undefined;
  #timer: NodeJS.Timeout | undefined;
  #seq = 0;

  constructor(private readonly file: string) {}

  report(params: JsonObject): void {
    const progress = progressOf(params);
    if (!progress) return;
    this.#latest = progress;
    this.#timer ??= setTimeout(() => this.flush(), WRITE_EVERY_MS);
  }

  /** Write what is not written yet (before the call's end is recorded, so the follower sees the last state). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const latest = this.#latest;
    if (!latest || latest === this.#written) return;
    this.#written = latest;
    const temporary = `${this.file}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify({ seq: ++this.#seq, ...latest }), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch {
      // progress is a courtesy: a state dir that cannot take it does not fail the call
    }
  }
}

/** The latest progress and its sequence number, or undefined when there is none (yet). */
export function readProgress(file: string): { seq: number; progress: Progress } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.seq !== "number") return undefined;
  const progress = progressOf(value);
  return progress ? { seq: value.seq, progress } : undefined;
}

/** Off a terminal: at most one line this often (the last state is still shown at the end). */
const PLAIN_EVERY_MS = 1_000;
const BAR_WIDTH = 24;

/** The follower's side: shows each new state on `err`. */
export class ProgressDisplay {
  #seq = 0;
  #shown: Progress | undefined;
  #pending: Progress | undefined;
  #lastLineAt = 0;
  #barDrawn = false;

  constructor(
    private readonly file: string,
    private readonly label: string,
    private readonly err: { write(text: string): unknown; readonly isTTY?: boolean } = process.stderr,
    private readonly now: () => number = Date.now,
  ) {}

  /** Read the file and show what is new (called at each poll of the call). */
  update(): void {
    const read = readProgress(this.file);
    if (read && read.seq !== this.#seq) {
      this.#seq = read.seq;
      this.#pending = read.progress;
    }
    if (!this.#pending) return;
    if (this.err.isTTY) {
      this.err.write(`\r\x1b[K${progressBar(this.#pending, BAR_WIDTH)}`);
      this.#barDrawn = true;
      this.#shown = this.#pending;
      this.#pending = undefined;
    } else if (this.now() - this.#lastLineAt >= PLAIN_EVERY_MS) {
      this.#line(this.#pending);
    }
  }

  /** The call ended: its last state, if not shown yet; a bar is cleared so the result starts clean. */
  end(): void {
    this.update();
    if (this.#pending && this.#pending !== this.#shown) this.#line(this.#pending);
    if (this.#barDrawn) this.err.write("\r\x1b[K");
    this.#barDrawn = false;
  }

  #line(progress: Progress): void {
    this.err.write(`mcpx: ${this.label}: ${inert(progressText(progress))}\n`);
    this.#lastLineAt = this.now();
    this.#shown = progress;
    this.#pending = undefined;
  }
}

/** `2/4 (50%) copying` where there is a total; `copying (2)` or `progress 2` otherwise. */
export function progressText(progress: Progress): string {
  const { total, message } = progress;
  if (total !== undefined) return `${progress.progress}/${total} (${percent(progress)}%)${message ? ` ${message}` : ""}`;
  return message ? `${message} (${progress.progress})` : `progress ${progress.progress}`;
}

/** A bar where there is a total (`[######----] 60% 3/5 copying`), the text otherwise; inert. */
export function progressBar(progress: Progress, width: number): string {
  if (progress.total === undefined) return inert(progressText(progress));
  const filled = Math.round((percent(progress) / 100) * width);
  const message = progress.message ? ` ${inert(progress.message)}` : "";
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent(progress)}% ${progress.progress}/${progress.total}${message}`;
}

function percent({ progress, total }: Progress): number {
  return total ? Math.max(0, Math.min(100, Math.round((progress / total) * 100))) : 0;
}
