/**
 * The dotenv format that Cursor's and VS Code's `envFile` point at: `NAME=value` lines,
 * optional `export `, `#` comments, single quotes taken literally, double quotes with
 * `\n`-style escapes. Nothing is expanded: a value is the text written.
 */

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/**
 * Parses dotenv text; later lines win.
 * @returns the variables, and each line that is neither blank, a comment nor `NAME=value`.
 */
export function parseDotenv(text: string): { vars: Record<string, string>; bad: number[] } {
  const vars: Record<string, string> = {};
  const bad: number[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (/^\s*(#.*)?$/.test(line)) return;
      const match = LINE.exec(line);
      const value = match ? parseValue(match[2] ?? "") : undefined;
      if (!match || value === undefined) bad.push(index + 1);
      else vars[match[1] ?? ""] = value;
    });
  return { vars, bad };
}

/** One value: quoted (its closing quote must be on the line), or bare up to a ` #` comment. */
function parseValue(raw: string): string | undefined {
  const quote = raw[0];
  if (quote === "'" || quote === '"') {
    let close = 1;
    while (close < raw.length && raw[close] !== quote) close += quote === '"' && raw[close] === "\\" ? 2 : 1;
    if (close >= raw.length) return undefined;
    if (!/^\s*(#.*)?$/.test(raw.slice(close + 1))) return undefined;
    const inner = raw.slice(1, close);
    return quote === "'" ? inner : inner.replace(/\\(.)/g, (all, ch: string) => ESCAPES[ch] ?? all);
  }
  return raw.replace(/\s+#.*$/, "").trim();
}

/** One `NAME=value` line that `parseDotenv` reads back as exactly `value`. */
export function dotenvLine(name: string, value: string): string {
  if (/^[A-Za-z0-9_./:@+,%=~-]*$/.test(value)) return `${name}=${value}`;
  if (!/['\r\n]/.test(value)) return `${name}='${value}'`;
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return `${name}="${escaped}"`;
}
