/**
 * The `mcpx` command line. Commands are thin: they parse, call the library, and set the exit code.
 *
 * `mcpx --version`, `ls` and `search` must cost about what Node takes to start (issue 14), so
 * this file loads next to nothing: `--version` is answered at once, a plain `ls` or `search`
 * line is read here (hot-args.ts) and runs with only its own modules; every other line goes
 * to commander (program.ts), which imports each command's modules when that command runs.
 * The build bundles this file with the hot commands' modules (the `import()`s in `runHot`, and
 * what they import statically) into one file (scripts/bundle-hot.mjs): one module to load, not forty.
 */
import { IMPLEMENTATION } from "../version.js";
import { CliError, Exit } from "./exit.js";
import { type HotLine, hotLine } from "./hot-args.js";

const only = process.argv.slice(2);
if (only.length === 1 && (only[0] === "--version" || only[0] === "-V")) {
  process.stdout.write(`${IMPLEMENTATION.version}\n`);
  process.exit(Exit.Ok);
}

/** What commander's actions for these commands do, without commander. */
async function runHot(line: HotLine): Promise<void> {
  // A discovery command never asks a question: the policy rules are not checked.
  const config = async () => (await import("./context.js")).configFor(line.options.config, { rules: false });
  if (line.command === "ls") {
    const { ls } = await import("./ls.js");
    process.exitCode = await ls(await config(), line.options);
  } else {
    const { searchCommand } = await import("./search.js");
    process.exitCode = await searchCommand(await config(), line.words, line.options);
  }
}

try {
  const hot = hotLine(only);
  if (hot) await runHot(hot);
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
