/**
 * What commander's actions for `mcpx ls` and `mcpx search` do, without commander: the plain
 * lines hot-args.ts reads (main.ts sends them here). The build bundles this file with the
 * modules these commands load (the `import()`s below, and what they import statically) into
 * one (scripts/bundle-hot.mjs): one module to load instead of about fifty. Nothing else loads it,
 * so `--version` and the commands commander runs never pay for it.
 */
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import type { HotLine } from "./hot-args.js";
import { configIdentity, hotConfigKept } from "./hot-config.js";

export async function runHot(line: HotLine): Promise<void> {
  // private, but not swept: that is left to the other commands (broker/state-dir.ts says why)
  const dir = ensurePrivateDir(stateDir(), undefined, { sweep: false });
  if (line.command === "search") {
    const { stampedSearch } = await import("./search.js");
    // a search whose stamp is true reads no config and no view (search-stamp.ts)
    const { resolved, key } = configIdentity(line.options.config);
    const stamped = key && stampedSearch(dir, { resolved, configKey: key.text }, line.words, line.options);
    if (stamped !== undefined) {
      process.exitCode = stamped;
      return;
    }
  }
  // A discovery command never asks a question: the policy rules are not checked.
  const { config, resolved, keptAs, warnings } = await hotConfigKept(line.options.config, dir);
  if (line.command === "ls") {
    const { ls } = await import("./ls.js");
    process.exitCode = await ls(config, line.options);
  } else {
    const { searchCommand } = await import("./search.js");
    process.exitCode = await searchCommand(config, line.words, line.options, { stateDir: dir, resolved, keptAs, warnings });
  }
}
