/**
 * What `catalog` prints from, kept beside the cache like the search index, one per config file:
 * every line it may print with its token count (catalog-budget.ts `catalogInput`). Counting
 * loads the tokenizer (~350 ms), so it is done once per change of what those lines are made
 * of: the input is keyed like the index (`indexKey`: each server's name, definition, catalogue
 * content, filter and description), built by the first `catalog` that finds it stale, and read
 * as stored by every later one, which never loads the tokenizer.
 */
import { catalogsDir } from "./cache-files.js";
import { keep, type KeptKind, readKept, wholeView } from "./cache-kept.js";
import type { DiscoveryView } from "./cache-read.js";
import { type CatalogInput, catalogInput } from "./catalog-budget.js";

/** Inputs kept at most (one per config file used); past that, the ones built longest ago go. */
export const MAX_CATALOG_INPUTS = 50;

/** `version` is bumped when the lines change (catalog-budget.ts, signature.ts) or the tokenizer does. */
const CATALOG_INPUTS: KeptKind = { dir: catalogsDir, field: "input", version: 1, max: MAX_CATALOG_INPUTS };

/** The view's catalog input: the stored one when it is current, else counted now (loading the tokenizer) and stored. */
export async function catalogInputFor(view: DiscoveryView): Promise<{ input: CatalogInput; built: boolean }> {
  const stored = readKept<CatalogInput>(view, CATALOG_INPUTS);
  if (stored) return { input: stored, built: false };
  const whole = wholeView(view);
  const { countTokens } = await import("./tokens.js");
  const input = catalogInput(
    whole.servers.filter((server) => server.state !== "disabled"),
    countTokens,
  );
  keep(view, CATALOG_INPUTS, input);
  return { input, built: true };
}
