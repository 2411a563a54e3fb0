/**
 * The command lines of `mcpx ls`, `search`, `types` and `catalog` read without the option parser: loading
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

export interface TypesLine {
  command: "types";
  spec: string;
  options: { config?: string; json?: boolean; cached?: boolean };
}

export interface CatalogLine {
  command: "catalog";
  options: { config?: string; json?: boolean; cached?: boolean; budget: number; bias?: string };
}

export type HotLine = LsLine | SearchLine | TypesLine | CatalogLine;

type Command = HotLine["command"];
type ValueKey = "config" | "limit" | "budget" | "bias";

/** The flags each hot command takes: a flag, or an option with a value (`--name VALUE` or `--name=VALUE`). */
const FLAGS: Record<string, "json" | "cached"> = { "--json": "json", "--cached": "cached" };
const CONFIG = { "-c": "config", "--config": "config" } as const;
const VALUES: Record<Command, Record<string, ValueKey>> = {
  ls: CONFIG,
  search: { ...CONFIG, "-n": "limit", "--limit": "limit" },
  types: CONFIG,
  catalog: { ...CONFIG, "--budget": "budget", "--bias": "bias" },
};
const COMMANDS = new Set<string>(Object.keys(VALUES));

/** `args` is `process.argv.slice(2)`; undefined: let commander read it. */
export function hotLine(args: readonly string[]): HotLine | undefined {
  const [command, ...rest] = args;
  if (command === undefined || !COMMANDS.has(command)) return undefined;
  const values = VALUES[command as Command];
  const options: { config?: string; json?: boolean; cached?: boolean; limit?: number; budget?: number; bias?: string } = {};
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
    if (flag) {
      if (equals > 0 || seen.has(flag)) return undefined;
      seen.add(flag);
      options[flag] = true;
      continue;
    }
    const key = values[name];
    if (key === undefined || seen.has(key)) return undefined;
    seen.add(key);
    const value = equals > 0 ? arg.slice(equals + 1) : rest[++at];
    if (value === undefined || value.startsWith("-")) return undefined;
    if (key === "config" || key === "bias") options[key] = value;
    else {
      // a whole number from 1, written plainly (commander's reading of anything else is its own)
      const number = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) return undefined;
      options[key] = number;
    }
  }
  const { config, json, cached, limit, budget, bias } = options;
  const common = { ...(config !== undefined ? { config } : {}), ...(json ? { json } : {}), ...(cached ? { cached } : {}) };
  if (command === "ls") return words.length === 0 ? { command, options: common } : undefined;
  if (command === "search") return words.length > 0 ? { command, words, options: { ...common, ...(limit !== undefined ? { limit } : {}) } } : undefined;
  if (command === "types") return words.length === 1 ? { command, spec: words[0]!, options: common } : undefined;
  // catalog: --budget is required (commander says so)
  return words.length === 0 && budget !== undefined
    ? { command: "catalog", options: { ...common, budget, ...(bias !== undefined ? { bias } : {}) } }
    : undefined;
}
