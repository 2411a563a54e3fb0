/** What an upstream offers: its tools, resources, resource templates and prompts. */
import { ErrorCode, isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { lookupTable } from "../protocol/lookup.js";
import type { Logger } from "../util/log.js";

export interface Catalog {
  tools: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  prompts: JsonObject[];
}

export type CatalogPart = keyof Catalog;

export const emptyCatalog = (): Catalog => ({ tools: [], resources: [], resourceTemplates: [], prompts: [] });

/** The list method, the result key and the capability that gate each part. */
export const CATALOG_PARTS: Record<CatalogPart, { method: string; key: string; capability: string }> = {
  tools: { method: "tools/list", key: "tools", capability: "tools" },
  resources: { method: "resources/list", key: "resources", capability: "resources" },
  resourceTemplates: { method: "resources/templates/list", key: "resourceTemplates", capability: "resources" },
  prompts: { method: "prompts/list", key: "prompts", capability: "prompts" },
};

/** The catalogue parts each list_changed notification re-reads; keyed by what the server sends. */
export const REFRESHED_BY = lookupTable<CatalogPart[]>({
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
});

const MAX_PAGES = 1_000;

/** The parts the server's capabilities offer, in catalogue order. */
export function offeredParts(capabilities: JsonObject): CatalogPart[] {
  return (Object.keys(CATALOG_PARTS) as CatalogPart[]).filter((part) => capabilities[CATALOG_PARTS[part].capability] !== undefined);
}

/** Follow `nextCursor` until the list ends. */
export async function fetchAll(request: (method: string, params: JsonObject | undefined) => Promise<JsonObject>, part: CatalogPart): Promise<JsonObject[]> {
  const { method, key } = CATALOG_PARTS[part];
  const items: JsonObject[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await request(method, typeof cursor === "string" ? { cursor } : undefined);
    const list = result[key];
    if (!Array.isArray(list)) throw new GatewayError("UPSTREAM_PROTOCOL", `${method} answered without a "${key}" array`);
    items.push(...list.filter(isObject));
    cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") return items;
  }
  throw new GatewayError("UPSTREAM_PROTOCOL", `${method} kept paginating past ${MAX_PAGES} pages`);
}

/** One part, whole; empty when the server does not implement its list method. */
export async function fetchPart(
  request: (method: string, params: JsonObject | undefined) => Promise<JsonObject>,
  part: CatalogPart,
  log: Logger,
): Promise<JsonObject[]> {
  try {
    return await fetchAll(request, part);
  } catch (error) {
    // Many servers declare `resources` without implementing resources/templates/list: a part
    // the server does not implement is empty, not a reason to lose the whole server.
    if (!(error instanceof RpcError) || error.code !== ErrorCode.MethodNotFound) throw error;
    log.debug("the server does not implement a list method; treating it as empty", { method: CATALOG_PARTS[part].method });
    return [];
  }
}

/** Every part the server's capabilities offer, read afresh. */
export async function readCatalog(
  request: (method: string, params: JsonObject | undefined) => Promise<JsonObject>,
  capabilities: JsonObject,
  log: Logger,
): Promise<Catalog> {
  const catalog = emptyCatalog();
  for (const part of offeredParts(capabilities)) catalog[part] = await fetchPart(request, part, log);
  return catalog;
}
