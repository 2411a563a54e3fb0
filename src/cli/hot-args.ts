/**
 * The command lines of `mcpx ls`, `search`, `types` and `catalog` read without the option parser: loading
 * commander costs a tenth of Node's start, and these commands must cost about one start
 * (issue 14). Only a plain line is read here: anything else (help, an unknown or repeated
 * option, a value that looks like an option, a bad number, `--`, `-cFILE`) gives undefined,
 * and commander reads the line, so its help and its errors stay the only ones.
 */
import { scanLine } from "./plain-line.js";

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

/** The flags and options with a value each hot command takes (plain-line.ts reads them). */
const FLAGS = { "--json": "json", "--cached": "cached" } as const;
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
  const line = scanLine(rest, { flags: FLAGS, values: VALUES[command as Command] });
  if (!line) return undefined;
  const limit = wholeNumber(line.values.get("limit"));
  const budget = wholeNumber(line.values.get("budget"));
  if (limit === null || budget === null) return undefined;
  const config = line.values.get("config");
  const bias = line.values.get("bias");
  const words = line.operands;
  const common = {
    ...(config !== undefined ? { config } : {}),
    ...(line.flags.has("json") ? { json: true } : {}),
    ...(line.flags.has("cached") ? { cached: true } : {}),
  };
  if (command === "ls") return words.length === 0 ? { command, options: common } : undefined;
  if (command === "search") return words.length > 0 ? { command, words, options: { ...common, ...(limit !== undefined ? { limit } : {}) } } : undefined;
  if (command === "types") return words.length === 1 ? { command, spec: words[0]!, options: common } : undefined;
  // catalog: --budget is required (commander says so)
  return words.length === 0 && budget !== undefined
    ? { command: "catalog", options: { ...common, budget, ...(bias !== undefined ? { bias } : {}) } }
    : undefined;
}

/** A whole number from 1, written plainly; null: anything else (commander's reading of it is its own); undefined: not given. */
function wholeNumber(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(number) && number >= 1 ? number : null;
}
