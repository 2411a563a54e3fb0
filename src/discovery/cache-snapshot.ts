/** What one successful read of a server gave, as plain data, and a hash of it. Light: no tokenizer. */
import { createHash } from "node:crypto";
import type { JsonObject } from "../protocol/jsonrpc.js";

/** What a successful read of one server gave (the upstream layer's catalogue, as plain data). */
export interface CatalogueSnapshot {
  revision?: string | undefined;
  transport?: string | undefined;
  serverInfo?: JsonObject | undefined;
  instructions?: string | undefined;
  catalog: { tools: JsonObject[]; prompts: JsonObject[]; resources: JsonObject[]; resourceTemplates: JsonObject[] };
}

export function contentHash(snapshot: CatalogueSnapshot): string {
  const { revision, transport, serverInfo, instructions, catalog } = snapshot;
  return createHash("sha256")
    .update(JSON.stringify([revision ?? null, transport ?? null, serverInfo ?? null, instructions ?? null, catalog]))
    .digest("hex");
}
