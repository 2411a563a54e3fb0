/**
 * The command lines of `mcpx ls` and `mcpx search` read without the option parser: loading
 * commander costs a tenth of Node's start, and these commands must cost about one start
 * (issue 14). Only a plain line is read here: anything else (help, an unknown or repeated
 * option, a value that looks like an option, a bad number, `--`, `-cFILE`) gives undefined,
 * and commander reads the line, so its help and its errors stay the only ones.
 */

export interface LsLine {
  command: "ls";
  options: { config?: string; json?: boolean; cached?: boolean };
}

export interface SearchLine {
  command: "search";
  words: string[];
  options: { config?: string; json?: boolean; cached?: boolean; limit?: number };
}

export type HotLine = LsLine | SearchLine;

/** The flags each hot command takes: a flag, or an option with a value (`--name VALUE` or `--name=VALUE`). */
const FLAGS: Record<string, "json" | "cached"> = { "--json": "json", "--cached": "cached" };
const VALUES: Record<HotLine["command"], Record<string, "config" | "limit">> = {
  ls: { "-c": "config", "--config": "config" },
  search: { "-c": "config", "--config": "config", "-n": "limit", "--limit": "limit" },
};

/** `args` is `process.argv.slice(2)`; undefined: let commander read it. */
export function hotLine(args: readonly string[]): HotLine | undefined {
  const [command, ...rest] = args;
  if (command !== "ls" && command !== "search") return undefined;
  const values = VALUES[command];
  const options: { config?: string; json?: boolean; cached?: boolean; limit?: number } = {};
  const seen = new Set<string>();
  const words: string[] = [];
  for (let at = 0; at < rest.length; at++) {
    const arg = rest[at]!;
    // What commander takes for an operand: "-" alone too.
    if (arg.length < 2 || !arg.startsWith("-")) {
      words.push(arg);
      continue;
    }
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    const flag = FLAGS[name];
    const key = flag ?? values[name];
    if (key === undefined || seen.has(key)) return undefined;
    seen.add(key);
    if (flag) {
      if (equals > 0) return undefined;
      options[flag] = true;
      continue;
    }
    const value = equals > 0 ? arg.slice(equals + 1) : rest[++at];
    if (value === undefined || value.startsWith("-")) return undefined;
    if (key === "config") options.config = value;
    else {
      const limit = Number(value);
      if (!/^\d+$/.test(value) || !Number.isInteger(limit) || limit < 1) return undefined;
      options.limit = limit;
    }
  }
  if (command === "ls") return words.length === 0 ? { command, options } : undefined;
  return words.length > 0 ? { command, words, options } : undefined;
}
