/**
 * What commander's actions for `mcpx ls` and `mcpx search` do, without commander: the plain
 * lines hot-args.ts reads (main.ts sends them here). The build bundles this file with the
 * modules these commands load (the `import()`s below, and what they import statically) into
 * one (scripts/bundle-hot.mjs): one module to load instead of about fifty. Nothing else loads it,
 * so `--version` and the commands commander runs never pay for it.
 */
import { setFlagsFromString } from "node:v8";
import type { HotLine } from "./hot-args.js";

/**
 * No optimising compiler for these commands: they run for a few tens of milliseconds, and V8
 * compiling a loop that got hot (the word-vector closeness, the edit distances over every name,
 * Node's own path joining) cost more instructions than the rest of the ranking (about 55M of a
 * search's 740M under callgrind; issue 14). The baseline compiler stays (tier 1): it costs little
 * and speeds up what loops. Only this process's tiering changes, and only from here on: the
 * commands commander runs, the daemon among them, never load this file.
 */
const BASELINE_ONLY = "--max-opt=1";

export async function runHot(line: HotLine): Promise<void> {
  setFlagsFromString(BASELINE_ONLY);
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
