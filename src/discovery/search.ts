/**
 * Ranking tools for a query (PLACEHOLDER: a substring ranker until the real index lands).
 *
 * `buildIndex` may take its time (it runs when the cache changes); `search` must be fast, and
 * an index must survive `JSON.stringify`/`JSON.parse` so it can be kept on disk beside the cache.
 */
import type { ToolRecord } from "./records.js";

export interface SearchHit {
  name: string;
  server: string;
  tool: string;
  description: string;
  score: number;
}

export interface SearchIndex {
  version: 0;
  tools: Array<Pick<ToolRecord, "name" | "server" | "tool" | "description">>;
}

export interface IndexInput {
  tools: ToolRecord[];
  /** Each server's one-line description, by server name. */
  serverDescriptions?: Record<string, string>;
}

export function buildIndex(input: IndexInput): SearchIndex {
  return { version: 0, tools: input.tools.map(({ name, server, tool, description }) => ({ name, server, tool, description })) };
}

export function search(index: SearchIndex, query: string, limit = 10): SearchHit[] {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  return index.tools
    .map((tool) => {
      const text = `${tool.name} ${tool.description}`.toLowerCase();
      return { ...tool, score: words.filter((word) => text.includes(word)).length };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
