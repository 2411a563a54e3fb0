/**
 * What mcpx__search, mcpx__describe and mcpx__servers answer: tool results (text the model
 * reads). A mistake in their arguments is an `isError` result saying what to send, so the
 * model can correct itself; a name nobody has gets the nearest names there are.
 */
import { describe } from "../../discovery/describe.js";
import { search, type SearchIndex } from "../../discovery/search.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { nearest } from "../../util/nearest.js";
import type { Gateway } from "../gateway.js";
import type { HostView } from "../profile-view.js";
import type { HostSession } from "../session.js";
import type { Upstream } from "../../upstream/upstream.js";
import { CALL_TOOL, DEFAULT_SEARCH_LIMIT, DESCRIBE_TOOL, MAX_DESCRIBED, MAX_SEARCH_LIMIT, SEARCH_TOOL, SERVERS_TOOL } from "./definitions.js";
import { discoveryView, type DiscoveryView } from "./discovery-view.js";
import { serverDescription } from "../../discovery/tool-records.js";
import { EXEC_TOOL } from "./exec.js";

/** Search results carry this much of a description; mcpx__describe has all of it. */
const MAX_HIT_DESCRIPTION = 300;
const SUGGESTIONS = 5;

/** Discovery's records of what the host sees (its profile's tools, or every tool). */
export function viewOf(gateway: Gateway, host: HostView): DiscoveryView {
  return discoveryView(host.catalogue, () =>
    Object.fromEntries(servedUpstreams(gateway, host).map((upstream) => [upstream.name, serverDescription(upstream.instructions, upstream.serverInfo)])),
  );
}

/** The upstreams of the servers the host's view serves. */
export function servedUpstreams(gateway: Gateway, host: HostView): Upstream[] {
  const served = new Set(host.config.servers.map((server) => server.name));
  return gateway.upstreams.filter((upstream) => served.has(upstream.name));
}

/** How often a search follows a catalogue that changed while its index was built, before it answers from the last one. */
const MAX_CHASES = 3;

/**
 * The search index of the catalogue as it is once the index is ready: built off the event loop
 * (search-indexes.ts), waited for (normally 2–3 s after a catalogue change, at most the build's
 * bound), and built again if the tools changed meanwhile.
 */
export async function currentIndex(gateway: Gateway, session: HostSession | undefined): Promise<SearchIndex> {
  for (let attempt = 1; ; attempt++) {
    const host = gateway.viewFor(session);
    const view = viewOf(gateway, host);
    const index = await gateway.searchIndexesFor(host).of(view.indexKey, () => view.indexInput);
    if (viewOf(gateway, gateway.viewFor(session)).indexKey === view.indexKey || attempt >= MAX_CHASES) return index;
  }
}

export async function answerGatewayTool(gateway: Gateway, session: HostSession, name: string, args: JsonObject): Promise<JsonObject> {
  if (name === SEARCH_TOOL) return searchTools(gateway, session, args);
  if (name === DESCRIBE_TOOL) return describeTools(gateway, session, args);
  if (name === SERVERS_TOOL) return listServers(gateway, session, args);
  return toolError(`unknown tool "${name}"`);
}

async function searchTools(gateway: Gateway, session: HostSession, args: JsonObject): Promise<JsonObject> {
  const { query, limit } = args;
  if (typeof query !== "string" || query.trim() === "") return toolError('give "query": a few words for what you want done, or a tool\'s name');
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_SEARCH_LIMIT)) {
    return toolError(`"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  const hits = search(await currentIndex(gateway, session), query, (limit as number | undefined) ?? DEFAULT_SEARCH_LIMIT).map((hit) => ({
    ...hit,
    description: clip(hit.description, MAX_HIT_DESCRIPTION),
  }));
  if (hits.length === 0) return text(`no tool matches ${JSON.stringify(query)}; try other words, or ${SERVERS_TOOL} for what each server is for`);
  return text(JSON.stringify(hits));
}

async function describeTools(gateway: Gateway, session: HostSession, args: JsonObject): Promise<JsonObject> {
  const view = viewOf(gateway, gateway.viewFor(session));
  const { names, format = "typescript" } = args;
  if (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === "string")) {
    return toolError('give "names": a list of SERVER__TOOL names (from mcpx__search)');
  }
  if (names.length > MAX_DESCRIBED) return toolError(`at most ${MAX_DESCRIBED} names at a time`);
  if (format !== "typescript" && format !== "schema") return toolError('"format" is "typescript" or "schema"');
  const found = [...new Set(names as string[])].map((name) => ({ name, tool: view.find(name) }));
  const records = found.flatMap(({ tool }) => (tool ? [tool.record] : []));
  const unknown = await Promise.all(found.filter(({ tool }) => !tool).map(({ name }) => unknownToolLine(gateway, session, view, name)));
  if (records.length === 0) return toolError(unknown.join("\n"));
  const body =
    format === "typescript"
      ? describe(records, "typescript", {
          howToCall: `Call each as ${CALL_TOOL} {"name": "SERVER__TOOL", "arguments": {...}}, or in ${EXEC_TOOL} as await SERVER.TOOL({...}), which resolves to the structuredContent where there is an outputSchema, else to the content.`,
        })
      : JSON.stringify(describe(records, "schema").tools);
  return text(unknown.length ? `${body}\n\n${unknown.join("\n")}` : body);
}

function listServers(gateway: Gateway, session: HostSession, args: JsonObject): JsonObject {
  const { server } = args;
  const host = gateway.viewFor(session);
  const view = viewOf(gateway, host);
  const upstreams = servedUpstreams(gateway, host);
  const count = (name: string): number => view.tools.filter((tool) => tool.record.server === name).length;
  if (server === undefined) {
    return text(
      JSON.stringify(
        upstreams.map((upstream) => ({
          server: upstream.name,
          state: upstream.state,
          tools: count(upstream.name),
          description: serverDescription(upstream.instructions, upstream.serverInfo),
        })),
      ),
    );
  }
  if (typeof server !== "string") return toolError('"server" must be a server\'s name');
  const upstream = upstreams.find((candidate) => candidate.name === server);
  if (!upstream) {
    const near = nearest(
      server,
      upstreams.map((candidate) => candidate.name),
    );
    return toolError(
      `no server named ${JSON.stringify(server)}${near.length ? `; did you mean ${near.map((name) => JSON.stringify(name)).join(" or ")}?` : ""}`,
    );
  }
  const info = isObject(upstream.serverInfo) ? upstream.serverInfo : {};
  return text(
    JSON.stringify({
      server: upstream.name,
      state: upstream.state,
      ...(typeof info.title === "string" ? { title: info.title } : {}),
      ...(typeof info.description === "string" ? { description: info.description } : {}),
      ...(upstream.instructions ? { instructions: upstream.instructions } : {}),
      tools: view.tools.filter((tool) => tool.record.server === upstream.name).map((tool) => tool.record.name),
    }),
  );
}

/** The names nearest to one nobody has: near spellings first, then what a search for its words finds. */
export async function suggestionsFor(gateway: Gateway, session: HostSession | undefined, view: DiscoveryView, name: string): Promise<string[]> {
  const spelled = nearest(name, view.names, SUGGESTIONS);
  const words = name.replace(/__|[._-]/g, " ");
  const found = search(await currentIndex(gateway, session), words, SUGGESTIONS).map((hit) => hit.name);
  return [...new Set([...spelled, ...found])].slice(0, SUGGESTIONS);
}

export async function unknownToolLine(gateway: Gateway, session: HostSession | undefined, view: DiscoveryView, name: string): Promise<string> {
  const suggestions = await suggestionsFor(gateway, session, view, name);
  const near = suggestions.length ? `; the nearest are ${suggestions.map((candidate) => JSON.stringify(candidate)).join(", ")}` : "";
  return `no tool named ${JSON.stringify(name)} (names are SERVER__TOOL, as ${SEARCH_TOOL} gives them)${near}`;
}

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

export function text(value: string): JsonObject {
  return { content: [{ type: "text", text: value }] };
}

export function toolError(value: string): JsonObject {
  return { content: [{ type: "text", text: value }], isError: true };
}
