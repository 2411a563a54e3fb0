/**
 * A plain `mcpx exec CODE [ARGS…] [-- ARGS…] [--config FILE] [--json]` line, read and run
 * without commander, as a plain `call` line is (call-line.ts): a warm exec is one request to
 * the daemon, and loading commander and the cold bundle's chunks cost more than the run
 * (docs/scripts.md, "Measured"). Only a plain line is read (plain-line.ts); `-` (the script on
 * stdin), an empty script, `--typecheck`, `--runtime`, `--no-daemon`, help and the rest are
 * commander's (test/cli/exec-line.test.ts).
 *
 * The line runs from `dist/cli/exec-warm.cjs` (run-daemon.ts as one CommonJS file, written by
 * scripts/bundle-cold.mjs), required from main.cjs, and only through a daemon already serving
 * the config; otherwise it does nothing and commander's `exec` runs as ever.
 */
import { plainLine, type PlainOptions } from "./plain-line.js";
import { warmBundle } from "./warm-bundle.js";

export interface ExecLine {
  code: string;
  args: string[];
  options: PlainOptions;
}

/** `args` is `process.argv.slice(2)`; undefined: let commander read it. */
export function execLine(args: readonly string[]): ExecLine | undefined {
  const [command, ...rest] = args;
  const line = command === "exec" ? plainLine(rest, true) : undefined;
  const [code, ...scriptArgs] = line?.operands ?? [];
  // "-" reads stdin and an empty script is a usage error: both run-source.ts's, through commander.
  if (!line || code === undefined || code === "-" || code.trim() === "") return undefined;
  return { code, args: scriptArgs, options: line.options };
}

/** What the warm bundle (run-daemon.ts) offers this file. */
interface WarmExec {
  warmExec(line: ExecLine): Promise<number | undefined>;
}

/** The run made through the daemon serving its config: its exit code; undefined when none serves it yet (commander's turn). */
export async function runExecLine(line: ExecLine): Promise<number | undefined> {
  const warm = await warmBundle<WarmExec>("exec-warm.cjs", () => import("./run-daemon.js"));
  return warm.warmExec(line);
}
