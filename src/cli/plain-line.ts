/**
 * The command lines main.ts reads itself, without commander (hot-args.ts, call-line.ts,
 * exec-line.ts): a command's own flags and options with a value (`--name VALUE`, `--name=VALUE`
 * for a long one), each at most once, anywhere among the operands, as commander reads them.
 * Anything else (help, an unknown or repeated option, a flag given a value, a value that looks
 * like an option, `-cFILE`, `--` where the command takes none) gives undefined, and commander
 * reads the line, so its help and its errors stay the only ones.
 */

/** What a command takes: its flags and its options with a value, each by the name the line uses. */
export interface LineSpec<Flag extends string, Value extends string> {
  flags: Readonly<Record<string, Flag>>;
  values: Readonly<Record<string, Value>>;
  /** `--` ends the options, everything after it an operand (commander's reading); without it, a line with `--` is commander's. */
  dashes?: boolean;
}

export interface ScannedLine<Flag extends string, Value extends string> {
  operands: string[];
  flags: Set<Flag>;
  values: Map<Value, string>;
}

/** `args` after the command's name, read as `spec` says; undefined: commander's. */
export function scanLine<Flag extends string, Value extends string>(
  args: readonly string[],
  spec: LineSpec<Flag, Value>,
): ScannedLine<Flag, Value> | undefined {
  const operands: string[] = [];
  const flags = new Set<Flag>();
  const values = new Map<Value, string>();
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    // What commander takes for an operand: "-" alone too.
    if (arg.length < 2 || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--" && spec.dashes) {
      operands.push(...args.slice(at + 1));
      break;
    }
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    const flag = Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    if (flag !== undefined) {
      if (equals > 0 || flags.has(flag)) return undefined;
      flags.add(flag);
      continue;
    }
    const key = Object.hasOwn(spec.values, name) ? spec.values[name] : undefined;
    if (key === undefined || values.has(key)) return undefined;
    const value = equals > 0 ? arg.slice(equals + 1) : args[++at];
    if (value === undefined || value.startsWith("-")) return undefined;
    values.set(key, value);
  }
  return { operands, flags, values };
}

/** The options of a plain `call` or `exec` line: `--config FILE` (`-c FILE`, `--config=FILE`) and `--json`. */
export interface PlainOptions {
  config?: string;
  json?: boolean;
}

export interface PlainLine {
  operands: string[];
  options: PlainOptions;
}

const PLAIN = { flags: { "--json": "json" }, values: { "-c": "config", "--config": "config" } } as const;

/** `args` after the command's name; `dashes`: `--` ends the options (as LineSpec's). */
export function plainLine(args: readonly string[], dashes: boolean): PlainLine | undefined {
  const line = scanLine(args, { ...PLAIN, dashes });
  if (!line) return undefined;
  const config = line.values.get("config");
  return { operands: line.operands, options: { ...(config !== undefined ? { config } : {}), ...(line.flags.has("json") ? { json: true } : {}) } };
}
