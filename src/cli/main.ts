/**
 * The `mcpx` command line. Commands are thin: they parse, call the library, and set the exit code.
 *
 * `mcpx --version`, `ls` and `search` must cost about what Node takes to start (issue 14), so
 * this file loads next to nothing: `--version` is answered at once, a plain `ls` or `search`
 * line is read here (hot-args.ts) and runs in hot.ts with only its own modules; every other line
 * goes to commander (program.ts), which imports each command's modules when that command runs.
 * The build bundles hot.ts with those commands' modules into one file (scripts/bundle-hot.mjs),
 * and this file with its own few, so `--version` loads three modules.
 */
import { IMPLEMENTATION } from "../version.js";
import { CliError, Exit } from "./exit.js";
import { hotLine } from "./hot-args.js";

const only = process.argv.slice(2);
if (only.length === 1 && (only[0] === "--version" || only[0] === "-V")) {
  process.stdout.write(`${IMPLEMENTATION.version}\n`);
  process.exit(Exit.Ok);
}

try {
  const hot = hotLine(only);
  if (hot) await (await import("./hot.js")).runHot(hot);
  else await (await import("./program.js")).runProgram(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    process.stderr.write(`mcpx: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`mcpx: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = Exit.Error;
  }
}
