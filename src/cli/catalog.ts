/**
 * `mcpx catalog --budget N [--bias WORDS]`: every server, then as many one-line signatures as
 * fit N tokens, spread over the servers, favouring the tools search ranks best for `--bias`.
 * The lines and their token counts come from the catalog input kept beside the cache
 * (discovery/cache-catalog.ts); the layout is discovery/catalog-budget.ts's.
 */
import type { Config } from "../config/types.js";
import { catalogInputFor } from "../discovery/cache-catalog.js";
import { searchIndexFor } from "../discovery/cache-index.js";
import { catalogLayout } from "../discovery/catalog-budget.js";
import { discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";
import { writeOut } from "./write-out.js";

export interface CatalogResult {
  budget: number;
  /** Tokens of the text as its lines were counted (o200k_base): at most the budget, never below the text's own count. */
  tokens: number;
  /** What the command prints without --json. */
  text: string;
  /** Every server in the catalog: its tool count, how many of its signatures are shown, and whether it has a line (else it is among "+N more servers"). */
  servers: Array<{ server: string; readAt: string | null; tools: number; shown: number; listed: boolean }>;
  /** The tools whose signatures are shown (`SERVER__TOOL`), in printed order. */
  shown: string[];
  /** Tools whose signature did not fit. */
  omitted: number;
}

export async function catalog(config: Config, options: { budget: number; bias?: string; json?: boolean; cached?: boolean }): Promise<number> {
  const view = await discoveryView(config, { cached: options.cached === true });
  const { input } = await catalogInputFor(view);
  const index = options.bias?.trim() ? (await searchIndexFor(view)).index : undefined;
  const layout = catalogLayout(input, options.budget, options.bias, index);
  if (layout.text === "")
    throw new CliError(`a budget of ${options.budget} tokens does not hold even the catalog's first line (${input.headerTokens} tokens)`, Exit.Usage);
  warnIfOld(view.servers);
  if (!options.json) {
    writeOut(layout.text.split("\n").map(inert).join("\n"));
    return Exit.Ok;
  }
  const readAt = new Map(view.servers.map((server) => [server.server, server.readAt ?? null]));
  const listed = new Set(layout.listed.map((server) => server.server));
  const result: CatalogResult = {
    budget: options.budget,
    tokens: layout.tokens,
    text: layout.text,
    servers: input.servers.map((server) => ({
      server: server.server,
      readAt: readAt.get(server.server) ?? null,
      tools: server.toolCount,
      shown: layout.shown.filter((tool) => tool.server === server.server).length,
      listed: listed.has(server.server),
    })),
    shown: layout.shown.map((tool) => tool.name),
    omitted: input.tools.length - layout.shown.length,
  };
  writeOut(`${inertJson(JSON.stringify(result, null, 2))}\n`);
  return Exit.Ok;
}
