/**
 * One line about an upstream, for discovery: the first sentence of its instructions, else its
 * serverInfo's title or description, else nothing. Upstream text: bounded, one line, and
 * never trusted for more than words to read.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";

const MAX_LINE = 160;

export function serverLine(instructions: string | undefined, serverInfo: JsonObject | undefined, max = MAX_LINE): string {
  const info = isObject(serverInfo) ? serverInfo : {};
  const source = [instructions, info.description, info.title].find((text): text is string => typeof text === "string" && text.trim() !== "");
  if (!source) return "";
  const flat = source.replace(/\s+/g, " ").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1)}…`;
}
