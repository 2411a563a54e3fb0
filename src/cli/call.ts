/**
 * `mcpx call SERVER.TOOL ['{json args}']`: one tool call through the gateway, in this process.
 */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { createLogger } from "../util/log.js";
import { CliError, Exit } from "./exit.js";

export interface CallOptions {
  json?: boolean;
}

export function parseTarget(target: string): { server: string; tool: string } {
  const dot = target.indexOf(".");
  if (dot <= 0 || dot === target.length - 1) throw new CliError(`expected SERVER.TOOL, got ${JSON.stringify(target)}`, Exit.Usage);
  return { server: target.slice(0, dot), tool: target.slice(dot + 1) };
}

export function parseArguments(text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`the arguments are not valid JSON: ${(error as Error).message}`, Exit.Usage);
  }
  if (!isObject(value)) throw new CliError("the arguments must be a JSON object", Exit.Usage);
  return value;
}

export async function call(config: Config, target: string, argsText: string | undefined, options: CallOptions): Promise<number> {
  const { server, tool } = parseTarget(target);
  const args = parseArguments(argsText);
  const gateway = new Gateway(config, createLogger({}, "warn"));
  const upstream = gateway.upstream(server);
  if (!upstream) {
    const known = gateway.upstreams.map((candidate) => candidate.name).join(", ") || "none";
    throw new CliError(`no server named "${server}" in ${config.file} (configured: ${known})`, Exit.Usage);
  }
  try {
    await upstream.start();
    const result = await upstream.call("tools/call", { name: tool, arguments: args });
    process.stdout.write(options.json ? JSON.stringify(result, null, 2) + "\n" : render(result));
    return result.isError === true ? Exit.Error : Exit.Ok;
  } catch (error) {
    if (error instanceof RpcError || error instanceof GatewayError) throw new CliError(`${server}.${tool}: ${error.message}`);
    throw error;
  } finally {
    await gateway.stop();
  }
}

/** Text content as text; anything else as its JSON, so nothing is hidden. */
function render(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((block: unknown) =>
    isObject(block) && block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block),
  );
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join("\n") + "\n";
}
