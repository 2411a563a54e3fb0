/**
 * Sets one member of a top-level object in JSON-with-comments text, leaving every other byte
 * as it was: other keys, comments, key order and indentation survive, so a host's config file
 * can be edited the way a person would edit it. Only the inserted or replaced value is new
 * text, written as JSON indented like its neighbours.
 */
import { ConfigError } from "./errors.js";
import { parseJsonc } from "./jsonc.js";

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

/**
 * Returns `text` with `container.key` set to `value` (creating `container` if absent).
 * Empty text becomes a new document.
 * @throws ConfigError if the text is not JSONC, or the root or `container` is not an object.
 */
export function setMember(text: string, container: string, key: string, value: unknown, file: string): string {
  if (text.trim() === "") return `${JSON.stringify({ [container]: { [key]: value } }, null, 2)}\n`;
  parseJsonc(text, file); // refuses what we could not edit safely
  const unit = indentUnit(text);
  const scan = new Scanner(text);
  const root = scan.objectAt(scan.skip(0));
  if (!root) throw new ConfigError(`${file}: the document is not a JSON object`);
  const holder = root.members.find((m) => m.key === container);
  let out: string;
  if (!holder) {
    out = insert(text, root, container, { [key]: value }, unit);
  } else {
    const inner = scan.objectAt(holder.valueStart);
    if (!inner) throw new ConfigError(`${file}: "${container}" is not an object`);
    const existing = inner.members.find((m) => m.key === key);
    if (existing) {
      const indent = lineIndent(text, existing.keyStart);
      out = text.slice(0, existing.valueStart) + render(value, indent, unit) + text.slice(existing.valueEnd);
    } else {
      out = insert(text, inner, key, value, unit);
    }
  }
  parseJsonc(out, file); // the edit must leave a valid document
  return out;
}

/** Returns `text` with the top-level `key` set to `value` (added after the last member when absent). */
export function setTopMember(text: string, key: string, value: unknown, file: string): string {
  if (text.trim() === "") return `${JSON.stringify({ [key]: value }, null, 2)}\n`;
  parseJsonc(text, file);
  const unit = indentUnit(text);
  const scan = new Scanner(text);
  const root = scan.objectAt(scan.skip(0));
  if (!root) throw new ConfigError(`${file}: the document is not a JSON object`);
  const existing = root.members.find((m) => m.key === key);
  const out = existing
    ? text.slice(0, existing.valueStart) + render(value, lineIndent(text, existing.keyStart), unit) + text.slice(existing.valueEnd)
    : insert(text, root, key, value, unit);
  parseJsonc(out, file);
  return out;
}

/**
 * Returns `text` without `container.key` (and the comma that joined it); unchanged when absent.
 * A comment on the removed member's lines goes with it; every other byte stays.
 */
export function removeMember(text: string, container: string, key: string, file: string): string {
  if (text.trim() === "") return text;
  parseJsonc(text, file);
  const scan = new Scanner(text);
  const root = scan.objectAt(scan.skip(0));
  const holder = root?.members.find((m) => m.key === container);
  const inner = holder ? scan.objectAt(holder.valueStart) : undefined;
  const index = inner?.members.findIndex((m) => m.key === key) ?? -1;
  if (!inner || index === -1) return text;
  const member = inner.members[index] as Member;
  const next = inner.members[index + 1];
  const previous = inner.members[index - 1];
  let out: string;
  if (next) out = text.slice(0, member.keyStart) + text.slice(next.keyStart);
  else if (previous) {
    // The last member: from the end of the one before it, so no comma is left dangling.
    const rest = /^[ \t]*,?/.exec(text.slice(member.valueEnd))?.[0] ?? "";
    out = text.slice(0, previous.valueEnd) + text.slice(member.valueEnd + rest.length);
  } else out = `${text.slice(0, inner.open + 1)}${text.slice(inner.close)}`;
  parseJsonc(out, file);
  return out;
}

function insert(text: string, obj: ObjectSpan, key: string, value: unknown, unit: string): string {
  const first = obj.members[0];
  const outer = lineIndent(text, obj.open);
  // Copy the first key's indent, unless it shares a line with something else (`{ "a": 1 }`).
  const ownLine = first && /^[ \t]*$/.test(text.slice(lineStart(text, first.keyStart), first.keyStart));
  const indent = first && ownLine ? lineIndent(text, first.keyStart) : outer + unit;
  const member = `${JSON.stringify(key)}: ${render(value, indent, unit)}`;
  const last = obj.members.at(-1);
  if (last) {
    // After the last member's line (its comma and any `// comment` stay with it) when it ends there.
    const rest = /^[ \t]*(,?)[ \t]*(\/\/[^\n]*)?(?=\r?\n)/.exec(text.slice(last.valueEnd));
    if (rest) {
      const lineEnd = last.valueEnd + rest[0].length;
      return `${text.slice(0, last.valueEnd)}${rest[1] ? "" : ","}${text.slice(last.valueEnd, lineEnd)}\n${indent}${member}${text.slice(lineEnd)}`;
    }
    return `${text.slice(0, last.valueEnd)},\n${indent}${member}${text.slice(last.valueEnd)}`;
  }
  return `${text.slice(0, obj.open + 1)}\n${indent}${member}\n${outer}${text.slice(obj.close)}`;
}

function render(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).split("\n").join(`\n${indent}`);
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The whitespace that starts the line holding `at`. */
function lineIndent(text: string, at: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, at), at))?.[0] ?? "";
}

/** The file's indent step, from its first indented key; two spaces if it has none. */
function indentUnit(text: string): string {
  const match = /\n([ \t]+)"/.exec(text);
  return match?.[1]?.includes("\t") ? "\t" : (match?.[1] ?? "  ");
}

/** Positions of values in text already known to be valid JSONC. */
class Scanner {
  constructor(private readonly text: string) {}

  /** The position after whitespace and comments from `at`. */
  skip(at: number): number {
    let pos = at;
    for (;;) {
      const ch = this.text[pos];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\uFEFF") pos++;
      else if (this.text.startsWith("//", pos)) {
        const end = this.text.indexOf("\n", pos);
        pos = end === -1 ? this.text.length : end + 1;
      } else if (this.text.startsWith("/*", pos)) pos = this.text.indexOf("*/", pos + 2) + 2;
      else return pos;
    }
  }

  /** The members of the object whose `{` is at `at`, or undefined if no object starts there. */
  objectAt(at: number): ObjectSpan | undefined {
    if (this.text[at] !== "{") return undefined;
    const members: Member[] = [];
    let pos = this.skip(at + 1);
    while (this.text[pos] === '"') {
      const keyStart = pos;
      const keyEnd = this.stringEnd(pos);
      const key = JSON.parse(this.text.slice(keyStart, keyEnd)) as string;
      const valueStart = this.skip(this.skip(keyEnd) + 1); // past ':'
      const valueEnd = this.valueEnd(valueStart);
      members.push({ key, keyStart, valueStart, valueEnd });
      pos = this.skip(valueEnd);
      if (this.text[pos] === ",") pos = this.skip(pos + 1);
    }
    return { open: at, close: pos, members };
  }

  private stringEnd(at: number): number {
    let pos = at + 1;
    while (this.text[pos] !== '"') pos += this.text[pos] === "\\" ? 2 : 1;
    return pos + 1;
  }

  private valueEnd(at: number): number {
    const ch = this.text[at];
    if (ch === '"') return this.stringEnd(at);
    if (ch === "{" || ch === "[") {
      const close = ch === "{" ? "}" : "]";
      let pos = this.skip(at + 1);
      while (this.text[pos] !== close) {
        if (ch === "{") pos = this.skip(this.skip(this.stringEnd(pos)) + 1); // key and ':'
        pos = this.skip(this.valueEnd(pos));
        if (this.text[pos] === ",") pos = this.skip(pos + 1);
      }
      return pos + 1;
    }
    return at + (/^[^,\]}\s/]+/.exec(this.text.slice(at))?.[0].length ?? 0);
  }
}
