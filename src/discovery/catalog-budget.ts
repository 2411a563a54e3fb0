/**
 * `mcpx catalog --budget N [--bias WORDS]`: every server on a line, then as many one-line
 * signatures as fit N tokens (the server lines counted too), spread over the servers round-robin
 * and favouring tools that match the bias. Pure.
 *
 * Counting tokens needs the tokenizer, which a fast command must not load: `catalogInput` counts
 * every line once, when the cache is written (the caller passes `discovery/tokens.ts`'s
 * `countTokens`), and `catalog` only adds. A line that carries a number is counted with the
 * largest number it can carry (o200k_base spends one token per group of up to 3 digits, so a
 * smaller number never costs more), so the sum is never below the truth.
 */
import { stemmer } from "stemmer";
import { invalidParams } from "../protocol/errors.js";
import type { ServerRecord } from "./records.js";
import { type SearchIndex, search } from "./search.js";
import { firstSentence, oneLine, signature } from "./signature.js";

export interface CatalogServer {
  server: string;
  /** One line (its first sentence), or "". */
  description: string;
  toolCount: number;
  /** Tokens of its line with the description, and without (the fallback when those do not fit). */
  tokens: number;
  shortTokens: number;
}

export interface CatalogTool {
  server: string;
  name: string;
  /** What the bias is matched against without an index. */
  description: string;
  signature: string;
  tokens: number;
}

/** What the cache keeps for `catalog`: every line it may print, with its token count. */
export interface CatalogInput {
  servers: CatalogServer[];
  tools: CatalogTool[];
  /** Tokens of the header line and of the "+N more servers" line, at their largest. */
  headerTokens: number;
  moreServersTokens: number;
}

type Count = (text: string) => number;

/** Counts every line `catalog` may print for these servers (run when the cache is written). */
export function catalogInput(servers: readonly ServerRecord[], countTokens: Count): CatalogInput {
  const toolTotal = servers.reduce((sum, server) => sum + server.tools.length, 0);
  const line = (text: string): number => countTokens(`${text}\n`);
  return {
    servers: servers.map((server) => {
      const description = firstSentence(server.description);
      const n = server.tools.length;
      return {
        server: server.server,
        description,
        toolCount: n,
        tokens: line(serverLine(server.server, description, n, n)),
        shortTokens: line(serverLine(server.server, "", n, n)),
      };
    }),
    tools: servers.flatMap((server) =>
      server.tools.map((tool) => {
        const text = signature(tool);
        return { server: server.server, name: tool.name, description: tool.description, signature: text, tokens: line(text) };
      }),
    ),
    headerTokens: line(header(servers.length, toolTotal, toolTotal)),
    moreServersTokens: line(moreServers(servers.length)),
  };
}

/** The catalog text, at most `budget` tokens; "" when not even its header fits. Throws on a budget that is no count. */
export function catalog(input: CatalogInput, budget: number, bias?: string, index?: SearchIndex): string {
  return catalogLayout(input, budget, bias, index).text;
}

/** A catalog and what is in it: for callers that report more than the text (`mcpx catalog --json`). */
export interface CatalogLayout {
  text: string;
  /** The counted tokens of its lines (at most the budget, and never below the text's own count). */
  tokens: number;
  /** The servers with a line of their own, in order (the rest are behind "+N more servers"). */
  listed: CatalogServer[];
  /** The tools whose signatures it shows, in printed order. */
  shown: CatalogTool[];
}

export function catalogLayout(input: CatalogInput, budget: number, bias?: string, index?: SearchIndex): CatalogLayout {
  if (!Number.isSafeInteger(budget) || budget < 0) throw invalidParams(`the budget is a whole number of tokens, 0 or more (got ${budget})`);
  let left = budget - input.headerTokens;
  if (left < 0) return { text: "", tokens: 0, listed: [], shown: [] };
  const servers = input.servers;
  const full = servers.reduce((sum, server) => sum + server.tokens, 0);
  const short = servers.reduce((sum, server) => sum + server.shortTokens, 0);
  let listed = servers;
  let withDescriptions = true;
  if (full <= left) left -= full;
  else if (short <= left) {
    left -= short;
    withDescriptions = false;
  } else {
    // Not even every server's name fits: as many as do, and where the rest are.
    withDescriptions = false;
    left -= input.moreServersTokens;
    listed = [];
    for (const server of servers) {
      if (server.shortTokens > left) break;
      listed.push(server);
      left -= server.shortTokens;
    }
  }
  const chosen = choose(input, listed, left, bias, index);
  const shownBy = new Map<string, CatalogTool[]>(listed.map((server) => [server.server, []]));
  for (const tool of chosen) shownBy.get(tool.server)?.push(tool);
  const lines = [header(servers.length, input.tools.length, chosen.length)];
  for (const server of listed)
    lines.push(serverLine(server.server, withDescriptions ? server.description : "", server.toolCount, server.toolCount - shownBy.get(server.server)!.length));
  if (listed.length < servers.length) lines.push(moreServers(servers.length - listed.length));
  const shown: CatalogTool[] = [];
  for (const server of listed) for (const tool of shownBy.get(server.server)!) shown.push(tool);
  lines.push(...shown.map((tool) => tool.signature));
  const spent = budget - left + shown.reduce((sum, tool) => sum + tool.tokens, 0);
  return { text: `${lines.join("\n")}\n`, tokens: spent, listed, shown };
}

/**
 * The tools to show within `budget` tokens: first those the bias matches, best first; then
 * round-robin over the servers (each server's first tool, then each one's second, …).
 * A tool too long for what is left is passed over for shorter ones after it.
 */
function choose(input: CatalogInput, servers: readonly CatalogServer[], budget: number, bias?: string, index?: SearchIndex): CatalogTool[] {
  const order = new Map(servers.map((server, i) => [server.server, i]));
  const perServer = servers.map(() => [] as CatalogTool[]);
  for (const tool of input.tools) {
    const at = order.get(tool.server);
    if (at !== undefined) perServer[at]!.push(tool);
  }
  const scores = bias?.trim() ? biasScores(input.tools, bias, index) : new Map<string, number>();
  const rank = new Map<CatalogTool, number>();
  for (const tools of perServer) for (const [i, tool] of tools.entries()) rank.set(tool, i);
  const favoured = input.tools
    .filter((tool) => (scores.get(tool.name) ?? 0) > 0 && rank.has(tool))
    .sort((a, b) => scores.get(b.name)! - scores.get(a.name)! || rank.get(a)! - rank.get(b)! || order.get(a.server)! - order.get(b.server)!);
  const chosen: CatalogTool[] = [];
  const taken = new Set<CatalogTool>();
  let left = budget;
  const offer = (tool: CatalogTool): void => {
    if (taken.has(tool) || tool.tokens > left) return;
    taken.add(tool);
    chosen.push(tool);
    left -= tool.tokens;
  };
  for (const tool of favoured) offer(tool);
  const rounds = Math.max(0, ...perServer.map((tools) => tools.length));
  for (let round = 0; round < rounds; round++) for (const tools of perServer) if (tools[round]) offer(tools[round]!);
  return chosen;
}

/** How well each tool matches the bias: by the search index when given one, else by shared words. */
function biasScores(tools: readonly CatalogTool[], bias: string, index?: SearchIndex): Map<string, number> {
  if (index) {
    const hits = search(index, bias, tools.length);
    return new Map(hits.map((hit, i) => [hit.name, hits.length - i]));
  }
  const wanted = words(bias);
  return new Map(
    tools.map((tool) => {
      const own = words(`${tool.name} ${tool.description}`);
      return [tool.name, wanted.filter((word) => own.some((mine) => sameWord(word, mine))).length];
    }),
  );
}

/** Same stem, or one stem a prefix of the other of at least 4 letters ("forecasts", "forecasting"; not "for", "forecast"). */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short === long || (short.length >= 4 && long.startsWith(short));
}

const STOP_WORDS = new Set(["the", "and", "for", "with", "from", "into", "that", "this", "are", "was", "can", "use", "all", "any", "its", "not"]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
    .map((word) => stemmer(word));
}

function header(servers: number, tools: number, shown: number): string {
  return `${servers} servers, ${tools} tools; below: every server, then ${shown} tool signatures. Find others: mcpx search WORDS; full types: mcpx types SERVER`;
}

/** `git (12 tools, +7 more): description` — "+7 more" being those not shown below. */
function serverLine(server: string, description: string, tools: number, notShown: number): string {
  const noun = tools === 1 ? "tool" : "tools";
  const counts = notShown > 0 ? `${tools} ${noun}, +${notShown} more` : `${tools} ${noun}`;
  return `${oneLine(server)} (${counts})${description ? `: ${description}` : ""}`;
}

function moreServers(count: number): string {
  return `+${count} more servers: mcpx ls`;
}
