/**
 * A plain `mcpx call SERVER.TOOL [ARGS…] [--config FILE] [--json]` line, read and run without
 * commander (issue 14: a warm call must cost at most two Node starts, and loading the option
 * parser and the cold bundle's ES module chunks cost about as much as the call). Only a plain
 * line is read here (plain-line.ts; `--` and no target are commander's too): anything else gives
 * undefined, and commander reads the line (test/cli/call-line.test.ts).
 *
 * The line runs from `dist/cli/call-warm.cjs` (daemon-call.ts as one CommonJS file, written by
 * scripts/bundle-cold.mjs), required from main.cjs: no ES module loader, one file. It goes to a
 * daemon only when one already serves the config; otherwise it does nothing and main.ts hands
 * the line to commander, whose `call` starts one (the cold path, unchanged).
 */
import { plainLine, type PlainOptions } from "./plain-line.js";
import { warmBundle } from "./warm-bundle.js";

export interface CallLine {
  target: string;
  args: string[];
  options: PlainOptions;
}

/** `args` is `process.argv.slice(2)`; undefined: let commander read it. */
export function callLine(args: readonly string[]): CallLine | undefined {
  const [command, ...rest] = args;
  const line = command === "call" ? plainLine(rest, false) : undefined;
  const [target, ...toolArgs] = line?.operands ?? [];
  return line && target !== undefined ? { target, args: toolArgs, options: line.options } : undefined;
}

/** What the warm bundle (daemon-call.ts) offers this file. */
interface WarmCall {
  warmCall(line: CallLine): Promise<number | undefined>;
}

/** The call made through the daemon serving its config: its exit code; undefined when none serves it yet (commander's turn). */
export async function runCallLine(line: CallLine): Promise<number | undefined> {
  const warm = await warmBundle<WarmCall>("call-warm.cjs", () => import("./daemon-call.js"));
  return warm.warmCall(line);
}
