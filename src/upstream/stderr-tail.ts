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

  /** The last `count` lines (all kept by default), oldest first. */
  lines(count = this.maxLines): string[] {
    return this.#lines.slice(-count);
  }

  clear(): void {
    this.#lines = [];
    this.#bytes = 0;
  }
}
