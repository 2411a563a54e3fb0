/** A server's listed tool as discovery's ToolRecord, and a server's one-line description. Pure. */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { discoveryName, type ToolRecord } from "./records.js";

export function toolRecord(server: string, tool: JsonObject): ToolRecord {
  const name = String(tool.name);
  return {
    server,
    tool: name,
    name: discoveryName(server, name),
    ...(typeof tool.title === "string" ? { title: tool.title } : {}),
    description: typeof tool.description === "string" ? tool.description : "",
    ...(isObject(tool.inputSchema) ? { inputSchema: tool.inputSchema } : {}),
    ...(isObject(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
    ...(isObject(tool.annotations) ? { annotations: tool.annotations } : {}),
  };
}

/** The first line of the server's instructions (a Markdown heading's `#`s dropped), else its serverInfo title, description or name; else "". */
export function serverDescription(instructions: string | null | undefined, serverInfo: JsonObject | null | undefined): string {
  // The first line with words in it, without a Markdown heading's `#`s.
  const first = (text: unknown): string =>
    typeof text === "string" ? (text.split(/\r?\n/).find((line) => line.trim() !== "") ?? "").replace(/^\s*#+\s*/, "").trim() : "";
  return first(instructions) || first(serverInfo?.title) || first(serverInfo?.description) || first(serverInfo?.name);
}
