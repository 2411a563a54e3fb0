/**
 * The command lines main.ts reads itself, without commander (call-line.ts, exec-line.ts): only
 * `--config FILE` (`-c FILE`, `--config=FILE`) and `--json`, each at most once, anywhere among
 * the operands, as commander reads them. Anything else (help, `--no-daemon`, an unknown or
 * repeated option, a value that looks like an option, `-cFILE`) gives undefined, and commander
 * reads the line, so its help and its errors stay the only ones.
 */

export interface PlainOptions {
  config?: string;
  json?: boolean;
}

export interface PlainLine {
  operands: string[];
  options: PlainOptions;
}

/**
 * `args` after the command's name. `dashes`: `--` ends the options, everything after it an
 * operand (commander's reading); without it, a line with `--` is commander's.
 */
export function plainLine(args: readonly string[], dashes: boolean): PlainLine | undefined {
  const options: PlainOptions = {};
  const operands: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    // What commander takes for an operand: "-" alone too.
    if (arg.length < 2 || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--" && dashes) {
      operands.push(...args.slice(at + 1));
      break;
    }
    if (arg === "--json" && options.json === undefined) {
      options.json = true;
      continue;
    }
    const equals = arg.startsWith("--config=") ? "--config=".length : -1;
    if ((arg !== "-c" && arg !== "--config" && equals < 0) || options.config !== undefined) return undefined;
    const value = equals > 0 ? arg.slice(equals) : args[++at];
    if (value === undefined || value.startsWith("-")) return undefined;
    options.config = value;
  }
  return { operands, options };
}
