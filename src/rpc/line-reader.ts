/**
 * Line framing (newline-delimited JSON on stdio, the lines of an SSE stream), with a bound on
 * line length so that a peer which never sends a newline cannot make mcpx buffer without limit.
 *
 * A line over the bound is not kept, but its first and last few bytes are: that is where
 * JSON-RPC serialisers put `"id"` (Python's up front, the TypeScript SDK's at the end), so the
 * request it answered can still be told. Reading resumes at the next line end, losing nothing
 * of the lines that follow.
 */

/** How much of an oversized line's start and end is kept to recognise it. */
export const EDGE_BYTES = 4096;

export interface OversizedLine {
  /** Bytes of the line read so far; all of it once `ended`. */
  bytes: number;
  /** The line's first bytes. */
  head: string;
  /** The line's last bytes; empty until `ended`. */
  tail: string;
  /** False at the moment the bound is crossed, true once the line has ended. */
  ended: boolean;
}

export interface LineReaderEvents {
  line: (text: string) => void;
  /** A line longer than the bound: reported when it crosses the bound, and again when it ends. */
  oversized: (line: OversizedLine) => void;
}

export interface LineReaderOptions {
  /** SSE ends lines at CR, LF or CRLF; newline-delimited JSON only at LF (a trailing CR is dropped). */
  lineEnds?: "lf" | "any";
}

const LF = 10;
const CR = 13;

export class LineReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skipping = false;
  #skipped = 0;
  #head = "";
  #tail: Buffer = Buffer.alloc(0);
  /** The last line ended at a CR: a LF that follows belongs to it. */
  #afterCr = false;
  readonly #anyLineEnd: boolean;

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: LineReaderEvents,
    options: LineReaderOptions = {},
  ) {
    this.#anyLineEnd = options.lineEnds === "any";
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.#afterCr && chunk.length > 0) {
      this.#afterCr = false;
      if (chunk[0] === LF) start = 1;
    }
    for (let at = this.#lineEnd(chunk, start); at !== -1; at = this.#lineEnd(chunk, start)) {
      this.#take(chunk.subarray(start, at));
      this.#endLine();
      start = at + 1;
      if (this.#anyLineEnd && chunk[at] === CR) {
        if (at + 1 === chunk.length) this.#afterCr = true;
        else if (chunk[at + 1] === LF) start++;
      }
    }
    this.#take(chunk.subarray(start));
  }

  #lineEnd(chunk: Buffer, from: number): number {
    const lf = chunk.indexOf(LF, from);
    if (!this.#anyLineEnd) return lf;
    const cr = chunk.indexOf(CR, from);
    return cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
  }

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#skipping) {
      this.#skipped += part.length;
      this.#keepTail(part);
      return;
    }
    this.#chunks.push(part);
    this.#buffered += part.length;
    if (this.#buffered > this.maxLineBytes) {
      // Only the two ends are kept: no copy of the whole line is made (it may be the bound's size).
      this.#skipping = true;
      this.#skipped = this.#buffered;
      this.#head = headOf(this.#chunks).toString("utf8");
      this.#tail = Buffer.alloc(0);
      for (const kept of this.#chunks) this.#keepTail(kept);
      this.#chunks = [];
      this.#buffered = 0;
      this.events.oversized({ bytes: this.#skipped, head: this.#head, tail: "", ended: false });
    }
  }

  #keepTail(part: Buffer): void {
    this.#tail = part.length >= EDGE_BYTES ? Buffer.from(part.subarray(-EDGE_BYTES)) : Buffer.concat([this.#tail, part]).subarray(-EDGE_BYTES);
  }

  #endLine(): void {
    if (this.#skipping) {
      const tail = this.#tail.toString("utf8").replace(/\r$/, "");
      this.#skipping = false;
      this.#tail = Buffer.alloc(0);
      this.events.oversized({ bytes: this.#skipped, head: this.#head, tail, ended: true });
      this.#skipped = 0;
      this.#head = "";
      return;
    }
    // Most lines arrive in one chunk: no copy then.
    const line = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    const text = line.toString("utf8", 0, end);
    this.#chunks = [];
    this.#buffered = 0;
    if (this.#anyLineEnd || text.trim() !== "") this.events.line(text);
  }
}

/** The first EDGE_BYTES of a line held in parts. */
function headOf(chunks: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= EDGE_BYTES) break;
    parts.push(chunk.subarray(0, EDGE_BYTES - size));
    size += parts[parts.length - 1]!.length;
  }
  return Buffer.concat(parts);
}
