/**
 * What commander's actions for `mcpx ls` and `mcpx search` do, without commander: the plain
 * lines hot-args.ts reads (main.ts sends them here). The build bundles this file with the
 * modules these commands load (the `import()`s below, and what they import statically) into
 * one (scripts/bundle-hot.mjs): one module to load instead of about fifty. Nothing else loads it,
 * so `--version` and the commands commander runs never pay for it.
 */
import type { HotLine } from "./hot-args.js";
import { baselineTiersOnly } from "./hot-tiers.js";

export async function runHot(line: HotLine): Promise<void> {
  baselineTiersOnly();
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
