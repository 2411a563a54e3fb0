/**
 * `mcpx catalog --budget N [--bias WORDS]`: every server, then as many one-line signatures as
 * fit N tokens, spread over the servers, favouring the tools that match `--bias`. Token counts
 * come precomputed from the cache (a real tokenizer, run when the cache was written).
 *
 * STAND-IN: the budgeting below is a local stand-in until discovery/catalog-budget.ts (H2)
 * lands; then `budgetCatalog` gives way to it and this file only reads and prints.
 */
import type { Config } from "../config/types.js";
import { searchIndexFor } from "../discovery/cache-index.js";
import { type DiscoveryTool, type DiscoveryView, lacksCounts } from "../discovery/cache-read.js";
import { search } from "../discovery/search.js";
import { discoveryView, warnIfOld } from "./discovery-view.js";
import { Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";

export interface CatalogResult {
  budget: number;
  /** Tokens of the lines given (o200k_base, as counted when the cache was written). */
  tokens: number;
  servers: Array<{ server: string; line: string; tools: number; readAt: string | null }>;
  signatures: string[];
  /** Tools whose signature did not fit. */
  omitted: number;
}

export async function catalog(config: Config, options: { budget: number; bias?: string; json?: boolean; cached?: boolean }): Promise<number> {
  let view = await discoveryView(config, { cached: options.cached === true });
  // Entries a serving gateway wrote have no token counts yet: made once here, and kept.
  if (lacksCounts(view) && (await import("../discovery/cache-counts.js")).fillCounts(view)) view = await discoveryView(config, { cached: true });
  const favoured = options.bias?.trim() ? search(searchIndexFor(view).index, options.bias, 50).map((hit) => hit.name) : [];
  const result = budgetCatalog(view, options.budget, favoured);
  warnIfOld(view.servers);
  if (options.json) {
    process.stdout.write(`${inertJson(JSON.stringify(result, null, 2))}\n`);
    return Exit.Ok;
  }
  const more = result.omitted > 0 ? [`// ${result.omitted} more tools: mcpx search WORDS, mcpx types SERVER`] : [];
  process.stdout.write(`${[...result.servers.map((server) => server.line), "", ...result.signatures, ...more].map(inert).join("\n")}\n`);
  return Exit.Ok;
}

/** Tokens a newline between lines costs, near enough. */
const NEWLINE = 1;

export function budgetCatalog(view: DiscoveryView, budget: number, favoured: readonly string[]): CatalogResult {
  const live = view.servers.filter((server) => server.state !== "disabled");
  const servers = live.map((server) => ({
    server: server.server,
    line: `${server.server}: ${server.description || "(no description)"} (${server.tools.length} tools)`,
    tools: server.tools.length,
    readAt: server.readAt ?? null,
  }));
  // The count of the `server: description` line was made at write time; the tool count adds a few.
  let tokens = live.reduce((sum, server) => sum + (server.descriptionTokens ?? 0) + 4 + NEWLINE, 0);
  const order = [
    ...favouredFirst(
      live.map((server) => server.tools),
      favoured,
    ),
  ];
  const signatures: string[] = [];
  for (const tool of order) {
    const cost = (tool.signatureTokens ?? 0) + NEWLINE;
    if (tokens + cost > budget) break;
    tokens += cost;
    signatures.push(tool.signature);
  }
  return { budget, tokens, servers, signatures, omitted: order.length - signatures.length };
}

/** The favoured tools in their rank order, then the rest taking turns server by server. */
function* favouredFirst(perServer: DiscoveryTool[][], favoured: readonly string[]): Generator<DiscoveryTool> {
  const byName = new Map(perServer.flat().map((tool) => [tool.name, tool]));
  const given = new Set<string>();
  for (const name of favoured) {
    const tool = byName.get(name);
    if (tool && !given.has(name)) {
      given.add(name);
      yield tool;
    }
  }
  const longest = Math.max(0, ...perServer.map((tools) => tools.length));
  for (let turn = 0; turn < longest; turn++) {
    for (const tools of perServer) {
      const tool = tools[turn];
      if (tool && !given.has(tool.name)) yield tool;
    }
  }
}
