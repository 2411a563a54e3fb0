/**
 * The `mcpx` command line. Commands are thin: they parse, call the library, and set the exit code.
 *
 * `mcpx --version`, `ls` and `search` must cost about what Node takes to start (issue 14), so
 * this file loads next to nothing: `--version` is answered at once, a plain `ls` or `search`
 * line is read here (hot-args.ts) and runs through hot-load.ts with only its own modules; a
 * plain `call` or `exec` line goes to the daemon already serving its config (call-line.ts,
 * exec-line.ts); every other
 * line (and such a line with no daemon to take it) goes to commander (program.ts), which
 * imports each command's modules when that command runs. The build writes this file as CommonJS, `dist/cli/main.cjs`, with its few
 * modules inside (scripts/bundle-hot.mjs), which bin/mcpx.js requires: no ES module loader
 * starts for those three commands. No top-level await, so it can be CommonJS.
 */
import { statSync } from "node:fs";
import { IMPLEMENTATION } from "../version.js";
import { cliErrorOf, Exit } from "./exit.js";
import { writeOut } from "./write-out.js";
import { hotLine } from "./hot-args.js";
import { runHotLine } from "./hot-load.js";
import { callLine, runCallLine } from "./call-line.js";
import { execLine, runExecLine } from "./exec-line.js";

async function start(args: readonly string[]): Promise<void> {
  const hot = hotLine(args);
  if (hot) return runHotLine(hot);
  const warm = await runWarmLine(args);
  if (warm !== undefined) process.exitCode = warm;
  else if (bundleIsCurrent()) await ((await import(BUNDLE.href)) as typeof import("./program.js")).runProgram(process.argv);
  else await (await import("./program.js")).runProgram(process.argv);
}

/** A plain `call` or `exec` line made through the daemon already serving its config; undefined: commander's turn. */
async function runWarmLine(args: readonly string[]): Promise<number | undefined> {
  const call = callLine(args);
  if (call) return runCallLine(call);
  const exec = execLine(args);
  return exec && runExecLine(exec);
}

const BUNDLE = new URL("./program.bundle.js", import.meta.url);

/** program.js bundled with what it reaches (scripts/bundle-cold.mjs), unless tsc has written program.js since. */
function bundleIsCurrent(): boolean {
  const bundled = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs;
  const built = statSync(new URL("./program.js", import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
  return bundled !== undefined && built !== undefined && bundled >= built;
}

function report(error: unknown): void {
  const cli = cliErrorOf(error);
  if (cli) {
    process.stderr.write(`mcpx: ${cli.message}\n`);
    process.exitCode = cli.exitCode;
  } else {
    process.stderr.write(`mcpx: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = Exit.Error;
  }
}

const only = process.argv.slice(2);
if (only.length === 1 && (only[0] === "--version" || only[0] === "-V")) {
  writeOut(`${IMPLEMENTATION.version}\n`);
  process.exit(Exit.Ok);
}
start(only).catch(report);
