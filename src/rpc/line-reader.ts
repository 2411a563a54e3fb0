/**
 * Newline-delimited framing for stdio, with a bound on line length so that a peer
 * which never sends a newline cannot make mcpx buffer without limit.
 */

export interface LineReaderEvents {
  line: (text: string) => void;
  /** A line longer than the limit was dropped. */
  oversized: (bytes: number) => void;
}

export class LineReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skipping = false;
  #skipped = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: LineReaderEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, at));
      this.#endLine();
      start = at + 1;
    }
    this.#take(chunk.subarray(start));
  }

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#skipping) {
      this.#skipped += part.length;
      return;
    }
    this.#chunks.push(part);
    this.#buffered += part.length;
    if (this.#buffered > this.maxLineBytes) {
      this.#skipping = true;
      this.#skipped = this.#buffered;
      this.#chunks = [];
      this.#buffered = 0;
    }
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.events.oversized(this.#skipped);
      this.#skipped = 0;
      return;
    }
    const text = Buffer.concat(this.#chunks).toString("utf8").replace(/\r$/, "");
    this.#chunks = [];
    this.#buffered = 0;
    if (text.trim() !== "") this.events.line(text);
  }
}
