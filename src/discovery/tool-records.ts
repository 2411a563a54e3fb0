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

/** Longest a server's line is, wherever it is shown. */
export const MAX_SERVER_LINE = 160;

/**
 * A server's one line, the same for `mcpx ls`, `mcpx__servers`, the host instructions and the
 * text search ranks it by: the first sentence of the first line with words in it (a Markdown
 * heading's `#`s dropped) of its instructions, else of its serverInfo description, else its
 * title; else "". Upstream text: bounded, and only ever words to read.
 */
export function serverDescription(instructions: string | null | undefined, serverInfo: JsonObject | null | undefined, max = MAX_SERVER_LINE): string {
  const info = isObject(serverInfo) ? serverInfo : {};
  const line = [instructions, info.description, info.title].map(firstLine).find((text) => text !== "") ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1)}…`;
}

function firstLine(text: unknown): string {
  if (typeof text !== "string") return "";
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== "") ?? "";
  return line
    .replace(/^\s*#+\s*/, "")
    .replace(/\s+/g, " ")
    .trim();
}
