/**
 * Span names and attributes after the MCP semantic conventions of OpenTelemetry: the name is
 * `{mcp.method.name} {target}` (the tool or prompt), the attributes `mcp.method.name`,
 * `jsonrpc.request.id`, `mcp.session.id`, `mcp.protocol.version`, `network.transport`,
 * `gen_ai.tool.name` with `gen_ai.operation.name` `execute_tool`, `gen_ai.prompt.name`,
 * `mcp.resource.uri`; an error is `error.type` (the JSON-RPC code, or `tool_error` for a tool's
 * `isError` result) with `rpc.response.status_code`. `mcpx.server` names the upstream.
 */
import type { Attributes } from "@opentelemetry/api";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { HostRequest, UpstreamRequest } from "../telemetry.js";

export interface Named {
  name: string;
  attributes: Attributes;
}

function target(method: string, params: JsonObject | undefined): Named {
  const attributes: Attributes = { "mcp.method.name": method };
  const name = typeof params?.name === "string" ? params.name : undefined;
  if (method === "tools/call" && name) {
    attributes["gen_ai.tool.name"] = name;
    attributes["gen_ai.operation.name"] = "execute_tool";
    return { name: `${method} ${name}`, attributes };
  }
  if (method === "prompts/get" && name) {
    attributes["gen_ai.prompt.name"] = name;
    return { name: `${method} ${name}`, attributes };
  }
  const uri = typeof params?.uri === "string" ? params.uri : undefined;
  if (uri) attributes["mcp.resource.uri"] = uri;
  return { name: method, attributes };
}

export function hostSpan(request: HostRequest): Named {
  const named = target(request.method, request.params);
  named.attributes["jsonrpc.request.id"] = String(request.id);
  named.attributes["network.transport"] = request.transport;
  if (request.sessionId) named.attributes["mcp.session.id"] = request.sessionId;
  if (request.protocolVersion) named.attributes["mcp.protocol.version"] = request.protocolVersion;
  return named;
}

/** An upstream request: its target is the server's own name for the tool or prompt. */
export function upstreamSpan(request: UpstreamRequest, params: JsonObject | undefined): Named {
  const named = target(request.method, params);
  named.attributes["network.transport"] = request.transport;
  named.attributes["mcpx.server"] = request.server;
  if (request.protocolVersion) named.attributes["mcp.protocol.version"] = request.protocolVersion;
  return named;
}

/** What an error or a tool's own error result adds to the span; undefined for a success. */
export function failure(outcome: { result: JsonObject } | { error: unknown }): { type: string; message?: string; code?: number } | undefined {
  if ("result" in outcome) return outcome.result.isError === true ? { type: "tool_error" } : undefined;
  const { error } = outcome;
  const code = isObject(error) ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "number") return { type: String(code), code, message };
  // mcpx's own errors carry a stable string code (protocol/errors.ts).
  return { type: typeof code === "string" ? code : error instanceof Error ? error.name : "Error", message };
}
