/** What an upstream offers: its tools, resources, resource templates and prompts. */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";

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

const MAX_PAGES = 1_000;

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
