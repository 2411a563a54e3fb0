/**
 * 2026-07-28 on `/mcp`: a POST without `Mcp-Session-Id` that speaks the modern era is served
 * statelessly, one message per POST, on a conversation of its own that ends with the POST. Its
 * headers must mirror its body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`: else 400
 * -32020), its envelope must be whole (400 -32602) and of a revision mcpx serves (400 -32022,
 * with the list), its method one the era has (404 -32601). No session is minted, no event ids
 * are sent: a broken response stream loses its request (the host re-issues it).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ErrorCode,
  errorResponse,
  isObject,
  isRequest,
  isResponse,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
} from "../../protocol/jsonrpc.js";
import { LEGACY_REVISIONS, isRevision } from "../../protocol/revisions.js";
import { RpcError } from "../../protocol/errors.js";
import { Peer } from "../../rpc/peer.js";
import type { Gateway } from "../gateway.js";
import { HostSession } from "../session.js";
import { Exchange, HttpSessionChannel } from "../http-session-channel.js";
import { hostNotification } from "../host-notifications.js";
import { isModernErrorCode, META } from "../../protocol/modern.js";
import { NAME_SOURCE, paramValues, readHeaderValue } from "../../protocol/modern-headers.js";
import { isModernRequest, readEnvelope } from "./envelope.js";
import { HEADER_MISMATCH } from "./errors.js";
import { rememberPeer } from "./host-identity.js";
import { peerOf } from "../../cluster/routing.js";
import { MODERN_METHODS, serveRequest } from "./serve.js";

/** Requests whose target is mirrored in `Mcp-Name`, and the param it mirrors. */

/** Is this session-less POST one of the modern era (its header or its body says so)? */
export function isModernPost(request: IncomingMessage, messages: JsonRpcMessage[]): boolean {
  const header = request.headers["mcp-protocol-version"];
  if (typeof header === "string" && !(isRevision(header) && LEGACY_REVISIONS.includes(header))) return true;
  return messages.some((message) => "method" in message && isModernRequest({ method: message.method, params: message.params }));
}

interface Refusal {
  status: number;
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Why this POST is refused before it is served, or undefined. */
function refusal(gateway: Gateway, request: IncomingMessage, messages: JsonRpcMessage[], batch: boolean, profile: string | undefined): Refusal | undefined {
  const [message] = messages;
  const id = message && isRequest(message) ? message.id : null;
  const refuse = (status: number, code: number, text: string, data?: unknown): Refusal => ({
    status,
    id,
    error: { code, message: text, ...(data !== undefined ? { data } : {}) },
  });
  if (batch || messages.length !== 1 || !message)
    return refuse(400, ErrorCode.InvalidRequest, "Invalid Request: a 2026-07-28 POST carries exactly one JSON-RPC message");
  if (isResponse(message)) return refuse(400, ErrorCode.InvalidRequest, "Invalid Request: a 2026-07-28 client sends no JSON-RPC responses");
  const header = request.headers["mcp-protocol-version"];
  if (typeof header !== "string" || header === "") return refuse(400, HEADER_MISMATCH, "Header mismatch: the MCP-Protocol-Version header is required");
  if (!isRequest(message)) return undefined; // a notification: only the version header matters
  const params = isObject(message.params) ? message.params : undefined;
  const meta = params?._meta;
  const version = isObject(meta) ? meta[META.protocolVersion] : undefined;
  if (typeof version !== "string")
    return refuse(400, ErrorCode.InvalidParams, `Invalid params: a 2026-07-28 request needs params._meta["${META.protocolVersion}"]`);
  if (version !== header) {
    return refuse(400, HEADER_MISMATCH, `Header mismatch: MCP-Protocol-Version ${JSON.stringify(header)} is not the request's ${JSON.stringify(version)}`);
  }
  try {
    readEnvelope(params);
  } catch (error) {
    if (error instanceof RpcError) return { status: 400, id, error: error.toWire() };
    throw error;
  }
  const method = request.headers["mcp-method"];
  if (method !== message.method) {
    return refuse(
      400,
      HEADER_MISMATCH,
      `Header mismatch: Mcp-Method ${method === undefined ? "is missing" : `${JSON.stringify(method)} is not the body's ${JSON.stringify(message.method)}`}`,
    );
  }
  const key = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  if (key) {
    const name = decodeHeader(request.headers["mcp-name"]);
    if (name === undefined || name !== params?.[key]) {
      return refuse(400, HEADER_MISMATCH, `Header mismatch: Mcp-Name must carry params.${key} of ${message.method}`);
    }
  }
  if (message.method === "tools/call") {
    const mismatch = paramHeaderMismatch(
      request,
      gateway.viewFor({ profileName: profile }).catalogue.tool(String(params?.name))?.inputSchema,
      params?.arguments,
    );
    if (mismatch) return refuse(400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`);
  }
  if (!MODERN_METHODS.has(message.method))
    return refuse(404, ErrorCode.MethodNotFound, `Method not found: ${message.method} (not part of protocol revision ${version})`);
  return undefined;
}

/** The 2026-07-28 errors that carry their own HTTP status: 400 for the era's own, 404 for an unknown method. */
function modernErrorStatus(error: JsonRpcErrorObject): number | undefined {
  if (isModernErrorCode(error.code)) return 400;
  return error.code === ErrorCode.MethodNotFound ? 404 : undefined;
}

/** A mirrored header value: plain, or the `=?base64?…?=` sentinel form for what is not plain ASCII. */
export function decodeHeader(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? readHeaderValue(value) : undefined;
}

/**
 * Why the `Mcp-Param-{Name}` headers do not mirror the arguments the tool's schema marks with
 * `x-mcp-header` (each must be present, decode, and equal the argument), or undefined.
 */
function paramHeaderMismatch(request: IncomingMessage, schema: unknown, args: unknown): string | undefined {
  if (!isObject(args)) return undefined;
  for (const [header, expected] of Object.entries(paramValues(schema, args))) {
    const sent = request.headers[header];
    if (typeof sent !== "string") return `${header} is required: it mirrors an argument the tool marks with x-mcp-header`;
    const value = readHeaderValue(sent);
    if (value === undefined) return `${header} is not valid Base64 inside =?base64?…?=`;
    if (value !== expected) return `${header} does not match the argument it mirrors`;
  }
  return undefined;
}

/** Serve one modern POST (already past Accept, Content-Type and size checks). */
export function serveModernPost(
  gateway: Gateway,
  request: IncomingMessage,
  response: ServerResponse,
  messages: JsonRpcMessage[],
  options: { batch: boolean; json: boolean; identity: string; profile?: string | undefined },
): void {
  const refused = refusal(gateway, request, messages, options.batch, options.profile);
  if (refused) {
    response.writeHead(refused.status, { "content-type": "application/json" });
    response.end(JSON.stringify(errorResponse(refused.id, refused.error)));
    return;
  }
  const id = `modern-${randomUUID()}`;
  const log = gateway.log.child({ host: "http", request: id });
  const channel = new HttpSessionChannel(log);
  let base: HostSession | undefined;
  const peer = new Peer(
    channel,
    {
      request: (context) => serveRequest(gateway, base!, context),
      notification: (notification) => hostNotification(gateway, base!, notification),
    },
    log,
    "mcpx-",
  );
  base = new HostSession(peer, "http", id);
  base.identity = options.identity;
  base.profileName = options.profile;
  rememberPeer(base, peerOf(request));
  const [message] = messages;
  if (!message || !isRequest(message)) {
    response.writeHead(202).end();
    channel.receive(messages, undefined);
    void peer.close();
    return;
  }
  const exchange = new Exchange(response, {}, { json: options.json, errorStatus: modernErrorStatus });
  response.once("close", () => {
    // The stream broke before the answer: that cancels the request (no resumption in 2026).
    if (!exchange.ended || exchange.waiting.size > 0) for (const open of channel.forget(exchange)) peer.abandon(open, "the host closed the connection");
    void peer.close();
  });
  channel.receive(messages, exchange);
}
