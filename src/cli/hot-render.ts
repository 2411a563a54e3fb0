/**
 * What commander's actions for `mcpx types` and `mcpx catalog` do, without commander: the
 * plain lines hot-args.ts reads, bundled like hot.ts (scripts/bundle-hot.mjs) into a script of
 * their own with the renderings they load (TypeScript declarations, the catalog's layout),
 * which `ls` and `search` never load.
 */
import type { CatalogLine, TypesLine } from "./hot-args.js";
import { hotConfigKept, hotStateDir } from "./hot-config.js";

export async function runHot(line: TypesLine | CatalogLine): Promise<void> {
  // A discovery command never asks a question: the policy rules are not checked.
  const { config } = await hotConfigKept(line.options.config, hotStateDir());
  if (line.command === "types") {
    const { types } = await import("./types.js");
    process.exitCode = await types(config, line.spec, line.options);
  } else {
    const { catalog } = await import("./catalog.js");
    process.exitCode = await catalog(config, line.options);
  }
}
