/**
 * What commander's actions for `mcpx ls` and `mcpx search` do, without commander: the plain
 * lines hot-args.ts reads (main.ts sends them here). The build bundles this file with the
 * modules these commands load (the `import()`s below, and what they import statically) into
 * one (scripts/bundle-hot.mjs): one module to load instead of about fifty. Nothing else loads it,
 * so `--version` and the commands commander runs never pay for it. `types` and `catalog` have
 * their own (hot-render.ts), so that these two do not load the renderings.
 */
import type { LsLine, SearchLine } from "./hot-args.js";
import { configIdentity, hotConfigKept, hotStateDir } from "./hot-config.js";

export async function runHot(line: LsLine | SearchLine): Promise<void> {
  const dir = hotStateDir();
  const identity = configIdentity(line.options.config);
  if (line.command === "search" && identity.key) {
    const { stampedSearch } = await import("./search.js");
    // a search whose stamp is true reads no config and no view (search-stamp.ts)
    const stamped = stampedSearch(dir, { resolved: identity.resolved, configKey: identity.key.text }, line.words, line.options);
    if (stamped !== undefined) {
      process.exitCode = stamped;
      return;
    }
  }
  // A discovery command never asks a question: the policy rules are not checked.
  const { config, resolved, keptAs, warnings } = await hotConfigKept(line.options.config, dir, Date.now, identity);
  if (line.command === "ls") {
    const { ls } = await import("./ls.js");
    process.exitCode = await ls(config, line.options);
  } else {
    const { searchCommand } = await import("./search.js");
    process.exitCode = await searchCommand(config, line.words, line.options, { stateDir: dir, resolved, keptAs, warnings });
  }
}
