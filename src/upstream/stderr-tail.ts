/**
 * The last lines an upstream process wrote to stderr, kept so that `mcpx servers` and
 * `mcpx serve` can say why it is down (an npm 404, a missing module). Bounded by lines and
 * by bytes, so a chatty server costs at most a few KB. Pure.
 */

export const TAIL_LINES = 20;
export const TAIL_BYTES = 4 * 1024;

export class StderrTail {
  #lines: string[] = [];
  #bytes = 0;

  constructor(
    private readonly maxLines = TAIL_LINES,
    private readonly maxBytes = TAIL_BYTES,
  ) {}

  push(line: string): void {
    const text = line.length > this.maxBytes ? `${line.slice(0, this.maxBytes - 1)}…` : line.trimEnd();
    if (text.trim() === "") return; // blank lines say nothing about why it stopped
    this.#lines.push(text);
    this.#bytes += Buffer.byteLength(text);
    while (this.#lines.length > this.maxLines || (this.#bytes > this.maxBytes && this.#lines.length > 1)) {
      this.#bytes -= Buffer.byteLength(this.#lines.shift()!);
    }
  }

  /** The last `count` lines that say what is wrong (see `saysWhatIsWrong`), oldest first. */
  errorLines(count = ERROR_LINES): string[] {
    return this.#lines.filter(saysWhatIsWrong).slice(-count);
  }

  /** The last `count` lines (all kept by default), oldest first. */
  lines(count = this.maxLines): string[] {
    return this.#lines.slice(-count);
  }

  clear(): void {
    this.#lines = [];
    this.#bytes = 0;
  }
}

/** How many of the lines that say what is wrong a report shows. */
export const ERROR_LINES = 3;

/** A line of a stack trace: it says where, not what. */
const STACK_FRAME = /^\s+(?:at\s|File\s")/;
/** An error or exception named (`Error:`, `TypeError:`, `ModuleNotFoundError:`, `Exception in thread`). */
const NAMED_ERROR = /^\s*[\w.$]*(?:Error|Exception)(?::|\s|$)/;
/** A tool's own prefix for what went wrong (`npm error`, `npm ERR!`, `error:`, `fatal:`, `panic:`, `[ERROR]`). */
const ERROR_PREFIX = /^\s*(?:npm\s+)?\[?(?:error|err!|fatal|panic)\]?(?::|\s|$)/i;

/**
 * Does this stderr line say what is wrong ("Error: Cannot find module '/x/y.js'", "npm error 404
 * Not Found")? A stack trace ends with lines that do not ("requireStack: []", "Node.js v20…"),
 * so a report shows these first rather than only the last lines.
 */
export function saysWhatIsWrong(line: string): boolean {
  return !STACK_FRAME.test(line) && (NAMED_ERROR.test(line) || ERROR_PREFIX.test(line));
}
