/**
 * Upstream text made inert for a terminal. A message, title, enum value, URL or error from an
 * upstream is data; printed raw, its escape sequences would clear the screen, retitle the
 * window, move the cursor, hide a link (OSC 8), reorder what is read (bidi overrides) or fake
 * a line of mcpx's own (a CR or newline, then "mcpx: ..."). Every such character is shown as
 * an escape instead: `\x1b`, `\r`, `\u202e`. Pure.
 */

/**
 * C0 controls, DEL, C1 controls (0x80-0x9F: 0x9B is a one-byte CSI), the bidi embeddings,
 * overrides, isolates and marks, and the Unicode line and paragraph separators.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** One line of upstream text: every control character shown as an escape, newlines too. */
export function inert(text: unknown): string {
  return String(text).replace(CONTROL, visible);
}

/**
 * Upstream text that may span lines (a message, a description, a tool's text result): each
 * line made inert, and every line after the first starting with `continuation`, so no line
 * of it can pass for one of mcpx's own.
 */
export function inertLines(text: unknown, continuation: string): string {
  return String(text).split(/\r?\n/).map(inert).join(`\n${continuation}`);
}

/** What JSON.stringify leaves raw in strings: it escapes C0 controls only. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * JSON text (from JSON.stringify) with the characters it leaves raw (DEL, C1, bidi, the
 * separators) written as `\uXXXX` escapes: the same JSON value, inert on a terminal.
 */
export function inertJson(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}
