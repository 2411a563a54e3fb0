/**
 * What `catalog` prints from, kept beside the cache like the search index, one per config file:
 * every line it may print with its token count (catalog-budget.ts `catalogInput`). Counting
 * loads the tokenizer (~350 ms), so it is done once per change of what those lines are made
 * of: the input is keyed like the index (`indexKey`: each server's name, definition, catalogue
 * content, filter and description), built by the first `catalog` that finds it stale, and read
 * as stored by every later one, which never loads the tokenizer.
 */
import { join } from "node:path";
import { isObject } from "../protocol/jsonrpc.js";
import { catalogsDir, keepNewest, readJsonFile, writePrivateAtomically } from "./cache-files.js";
import { indexKey } from "./cache-index.js";
import { type DiscoveryView, readDiscovery } from "./cache-read.js";
import { type CatalogInput, catalogInput } from "./catalog-budget.js";
import { fastHash } from "./hash.js";

/** Bumped when the lines change (catalog-budget.ts, signature.ts) or the tokenizer does: a stored input of another version is stale. */
const CATALOG_INPUT_VERSION = 1;

/** Inputs kept at most (one per config file used); past that, the ones built longest ago go. */
export const MAX_CATALOG_INPUTS = 50;

interface StoredCatalogInput {
  version: typeof CATALOG_INPUT_VERSION;
  key: string;
  builtAt: string;
  input: CatalogInput;
}

/** The view's catalog input: the stored one when it is current, else counted now (loading the tokenizer) and stored. */
export async function catalogInputFor(view: DiscoveryView): Promise<{ input: CatalogInput; built: boolean }> {
  const key = indexKey(view);
  const file = inputFile(view);
  const stored = readJsonFile(file);
  if (isObject(stored) && stored.version === CATALOG_INPUT_VERSION && stored.key === key && isObject(stored.input))
    return { input: stored.input as unknown as CatalogInput, built: false };
  // Signatures need the schemas: a summary's view is read whole first.
  const whole = view.schemas ? view : readDiscovery(view.config, view.stateDir, { schemas: true });
  const { countTokens } = await import("./tokens.js");
  const input = catalogInput(
    whole.servers.filter((server) => server.state !== "disabled"),
    countTokens,
  );
  const record: StoredCatalogInput = { version: CATALOG_INPUT_VERSION, key, builtAt: new Date().toISOString(), input };
  try {
    writePrivateAtomically(file, JSON.stringify(record));
    keepNewest(catalogsDir(view.stateDir), MAX_CATALOG_INPUTS);
  } catch {
    // Not stored: the next catalog counts again, which is slower, never wrong.
  }
  return { input, built: true };
}

function inputFile(view: DiscoveryView): string {
  return join(catalogsDir(view.stateDir), `${fastHash(view.config.file)}.json`);
}
