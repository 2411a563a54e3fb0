/**
 * `mcpx search WORDS…`: the tools that best match, best first, from the schema cache and the
 * search index kept beside it (discovery/search.ts ranks; this prints).
 */
import type { Config } from "../config/types.js";
import { searchIndexFor } from "../discovery/cache-index.js";
import { search as rank, type SearchHit } from "../discovery/search.js";
import { discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { writeOut } from "./write-out.js";
import { inert, inertJson } from "./inert.js";

export const DEFAULT_LIMIT = 10;
const MAX_DESCRIPTION = 100;

export interface SearchEntry extends SearchHit {
  /** When its server's catalogue was read (ISO 8601). */
  readAt: string | null;
}

export async function searchCommand(config: Config, words: string[], options: { json?: boolean; cached?: boolean; limit?: number }): Promise<number> {
  const query = words.join(" ").trim();
  if (query === "") throw new CliError("say what to search for: mcpx search WORDS…", Exit.Usage);
  const view = await discoveryView(config, { cached: options.cached === true });
  const { index } = await searchIndexFor(view);
  const readAt = new Map(view.servers.map((server) => [server.server, server.readAt ?? null]));
  const hits: SearchEntry[] = rank(index, query, options.limit ?? DEFAULT_LIMIT).map((hit) => ({ ...hit, readAt: readAt.get(hit.server) ?? null }));
  warnIfOld(view.servers.filter((server) => hits.some((hit) => hit.server === server.server)));
  if (options.json) {
    writeOut(`${inertJson(JSON.stringify(hits, null, 2))}\n`);
    return Exit.Ok;
  }
  if (hits.length === 0) {
    writeOut(`no tool matches "${inert(query)}"\n`);
    return Exit.Ok;
  }
  const width = Math.max(...hits.map((hit) => inert(hit.name).length));
  writeOut(`${hits.map((hit) => `${inert(hit.name).padEnd(width)}  ${firstLine(hit.description)}`.trimEnd()).join("\n")}\n`);
  return Exit.Ok;
}

function firstLine(description: string): string {
  const text = inert(description.trim().split(/\r?\n/)[0] ?? "");
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
