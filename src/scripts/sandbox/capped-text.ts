/**
 * One stream of a script's printed output, kept up to a number of UTF-8 bytes; what goes beyond
 * is counted and said at the end ("… 12,345 more bytes left out"). The worker cuts before
 * sending (so a flood never floods the channel) and the main thread cuts again (it trusts no
 * count the worker sends).
 */
export class CappedText {
  readonly #capBytes: number;
  readonly #parts: string[] = [];
  #bytes = 0;
  #leftOut = 0;

  constructor(capBytes: number) {
    this.#capBytes = Math.max(0, capBytes);
  }

  /** Keeps what of `text` fits and returns it ("" when nothing did). */
  add(text: string): string {
    const size = Buffer.byteLength(text);
    const room = this.#capBytes - this.#bytes;
    if (size <= room) {
      this.#parts.push(text);
      this.#bytes += size;
      return text;
    }
    const kept = cutToBytes(text, room);
    const keptBytes = Buffer.byteLength(kept);
    if (kept) this.#parts.push(kept);
    this.#bytes += keptBytes;
    this.#leftOut += size - keptBytes;
    return kept;
  }

  /** Bytes left out before they reached here. */
  leaveOut(bytes: number): void {
    this.#leftOut += bytes;
  }

  get leftOut(): number {
    return this.#leftOut;
  }

  /** What was kept, then the marker when anything was left out. */
  text(): string {
    const kept = this.#parts.join("");
    if (this.#leftOut === 0) return kept;
    const separator = kept === "" || kept.endsWith("\n") ? "" : "\n";
    return `${kept}${separator}… ${grouped(this.#leftOut)} more bytes left out\n`;
  }
}

/** The longest start of `text` that is at most `maxBytes` of UTF-8, cut between characters. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
