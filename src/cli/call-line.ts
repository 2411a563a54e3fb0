/**
 * A plain `mcpx call SERVER.TOOL [ARGS…] [--config FILE] [--json]` line, read and run without
 * commander (issue 14: a warm call must cost at most two Node starts, and loading the option
 * parser and the cold bundle's ES module chunks cost about as much as the call). Only a plain
 * line is read here: anything else (help, `--no-daemon`, an unknown or repeated option, a value
 * that looks like an option, `--`, `-cFILE`, no target) gives undefined, and commander reads the
 * line, so its help and its errors stay the only ones (test/cli/call-line.test.ts).
 *
 * The line runs from `dist/cli/call-warm.cjs` (daemon-call.ts as one CommonJS file, written by
 * scripts/bundle-cold.mjs), required from main.cjs: no ES module loader, one file. It goes to a
 * daemon only when one already serves the config; otherwise it does nothing and main.ts hands
 * the line to commander, whose `call` starts one (the cold path, unchanged).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export interface CallLine {
  target: string;
  args: string[];
  options: { config?: string; json?: boolean };
}

/** `args` is `process.argv.slice(2)`; undefined: let commander read it. */
export function callLine(args: readonly string[]): CallLine | undefined {
  const [command, ...rest] = args;
  if (command !== "call") return undefined;
  const options: CallLine["options"] = {};
  const operands: string[] = [];
  for (let at = 0; at < rest.length; at++) {
    const arg = rest[at]!;
    // What commander takes for an operand: "-" alone too.
    if (arg.length < 2 || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--json" && options.json === undefined) {
      options.json = true;
      continue;
    }
    const equals = arg.startsWith("--config=") ? "--config=".length : -1;
    if ((arg !== "-c" && arg !== "--config" && equals < 0) || options.config !== undefined) return undefined;
    const value = equals > 0 ? arg.slice(equals) : rest[++at];
    if (value === undefined || value.startsWith("-")) return undefined;
    options.config = value;
  }
  const [target, ...toolArgs] = operands;
  return target === undefined ? undefined : { target, args: toolArgs, options };
}

/** What the warm bundle (daemon-call.ts) offers this file. */
interface WarmCall {
  warmCall(line: CallLine): Promise<number | undefined>;
}

/** The call made through the daemon serving its config: its exit code; undefined when none serves it yet (commander's turn). */
export async function runCallLine(line: CallLine): Promise<number | undefined> {
  const bundled = import.meta.url.endsWith(".cjs") ? fileURLToPath(new URL("./call-warm.cjs", import.meta.url)) : undefined;
  const warm: WarmCall = bundled && existsSync(bundled) ? (createRequire(import.meta.url)(bundled) as WarmCall) : await import("./daemon-call.js");
  return warm.warmCall(line);
}
