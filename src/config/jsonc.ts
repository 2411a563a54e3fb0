/**
 * JSON with comments: line and block comments and trailing commas, nothing else.
 * A small recursive-descent parser rather than strip-then-JSON.parse, so that comment markers
 * inside strings are never touched, duplicate keys are caught, and every syntax error carries
 * a line and column (Node's JSON.parse reports neither reliably).
 */
import { ConfigError } from "./errors.js";
import { orderedObject } from "./ordered.js";

// Far beyond any real config; stops a hostile file from overflowing the stack.
const MAX_DEPTH = 256;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/**
 * Parses JSONC text. Objects keep their written key order (see `orderedEntries`).
 * @param file the name used in error messages, e.g. `examples/mcpx.json`.
 * @throws ConfigError `file:line:col: problem` on a syntax error or a duplicate key.
 */
export function parseJsonc(text: string, file: string): unknown {
  return new Parser(text.replace(/^\uFEFF/, ""), file).document();
}

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  document(): unknown {
    this.skip();
    if (this.pos >= this.text.length) throw this.error("the file is empty; expected a JSON object");
    const value = this.value(0);
    this.skip();
    if (this.pos < this.text.length) throw this.error(`unexpected ${this.here()} after the end of the document`);
    return value;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw this.error("nested too deeply");
    const ch = this.text[this.pos];
    if (ch === "{") return this.object(depth);
    if (ch === "[") return this.array(depth);
    if (ch === '"') return this.string();
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.number();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    throw this.error(`unexpected ${this.here()}; expected a value`);
  }

  private object(depth: number): Record<string, unknown> {
    this.pos++; // {
    const entries: [string, unknown][] = [];
    const seen = new Set<string>();
    this.skip();
    if (this.eat("}")) return orderedObject(entries);
    for (;;) {
      if (this.text[this.pos] !== '"') throw this.error(`unexpected ${this.here()}; expected a "quoted" key`);
      const keyAt = this.pos;
      const key = this.string();
      if (seen.has(key)) throw this.error(`duplicate key ${JSON.stringify(key)}`, keyAt);
      seen.add(key);
      this.skip();
      if (!this.eat(":")) throw this.error(`unexpected ${this.here()}; expected ':' after the key`);
      this.skip();
      entries.push([key, this.value(depth + 1)]);
      this.skip();
      if (this.eat("}")) return orderedObject(entries);
      if (!this.eat(",")) throw this.error(`unexpected ${this.here()}; expected ',' or '}'`);
      this.skip();
      if (this.eat("}")) return orderedObject(entries); // trailing comma
    }
  }

  private array(depth: number): unknown[] {
    this.pos++; // [
    const items: unknown[] = [];
    this.skip();
    if (this.eat("]")) return items;
    for (;;) {
      items.push(this.value(depth + 1));
      this.skip();
      if (this.eat("]")) return items;
      if (!this.eat(",")) throw this.error(`unexpected ${this.here()}; expected ',' or ']'`);
      this.skip();
      if (this.eat("]")) return items; // trailing comma
    }
  }

  private string(): string {
    const start = this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) throw this.error("unterminated string", start);
      if (ch === '"') break;
      if (ch < " ") throw this.error(ch === "\n" || ch === "\r" ? "line break inside a string" : "control character inside a string");
      if (ch === "\\") {
        const esc = this.text[this.pos + 1];
        const ok = esc !== undefined && (ESCAPES.has(esc) || (esc === "u" && /^[0-9A-Fa-f]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))));
        if (!ok) throw this.error("invalid escape sequence in string");
        this.pos += esc === "u" ? 6 : 2;
        continue;
      }
      this.pos++;
    }
    this.pos++; // closing quote
    // The literal is now known to be valid JSON, so JSON.parse decodes the escapes for us.
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  private number(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) throw this.error(`unexpected ${this.here()}; expected a number`);
    this.pos += match[0].length;
    return Number(match[0]);
  }

  /** Skips whitespace and comments. */
  private skip(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
        this.pos++;
      } else if (this.text.startsWith("//", this.pos)) {
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.text.length : end + 1;
      } else if (this.text.startsWith("/*", this.pos)) {
        const end = this.text.indexOf("*/", this.pos + 2);
        if (end === -1) throw this.error("unterminated /* comment");
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  private eat(ch: string): boolean {
    if (this.text[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }

  /** Describes the character at the cursor for a message. */
  private here(): string {
    const ch = this.text[this.pos];
    return ch === undefined ? "end of file" : JSON.stringify(ch);
  }

  private error(problem: string, at = this.pos): ConfigError {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    return new ConfigError(`${this.file}:${line}:${column}: ${problem}`);
  }
}
