/**
 * What commander's actions for `mcpx ls` and `mcpx search` do, without commander: the plain
 * lines hot-args.ts reads (main.ts sends them here). The build bundles this file with the
 * modules these commands load (the `import()`s below, and what they import statically) into
 * one (scripts/bundle-hot.mjs): one module to load instead of about fifty. Nothing else loads it,
 * so `--version` and the commands commander runs never pay for it.
 */
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import type { HotLine } from "./hot-args.js";
import { hotConfig } from "./hot-config.js";

export async function runHot(line: HotLine): Promise<void> {
  // private, but not swept: that is left to the other commands (broker/state-dir.ts says why)
  const dir = ensurePrivateDir(stateDir(), undefined, { sweep: false });
  // A discovery command never asks a question: the policy rules are not checked.
  const config = await hotConfig(line.options.config, dir);
  if (line.command === "ls") {
    const { ls } = await import("./ls.js");
    process.exitCode = await ls(config, line.options);
  } else {
    const { searchCommand } = await import("./search.js");
    process.exitCode = await searchCommand(config, line.words, line.options);
  }
}
