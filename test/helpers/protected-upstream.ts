/**
 * An MCP server that requires OAuth, as the MCP authorization spec describes a protected
 * resource: SDK 1.x over Streamable HTTP (stateful sessions) on 127.0.0.1, serving RFC 9728
 * protected-resource metadata that names its authorization server, and accepting only JWT
 * access tokens that server signed for this resource (verified with jose against its JWKS:
 * issuer, audience = this server's URL, expiry). Otherwise `401` with `WWW-Authenticate`
 * naming the metadata and the scope to ask for.
 *
 * Tools: `whoami` (the token's subject and scopes, never the token), `admin_task` (needs the
 * `admin` scope: without it the request is refused `403 insufficient_scope`, for step-up).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRemoteJWKSet, jwtVerify } from "jose";

export interface ProtectedUpstreamOptions {
  /** The authorization server's issuer. */
  issuer: string;
  /** What the metadata says the resource is (default this server's URL): another value is a wrong `resource`. */
  resource?: string;
  /** The scope a `401` asks for (default "mcp"). */
  challengeScope?: string;
  /** "calls": the handshake and listings need no token, only `tools/call` does (the sign-in comes in a call). Default "all". */
  protect?: "all" | "calls";
}

/** One request the server got: who it was from (when the token was good) and the header it carried. */
export interface ProtectedRequest {
  authorization: string | undefined;
  subject?: string;
  scope?: string;
  /** The token's id (jti), when it was good. */
  tokenId?: string;
  status: number;
  /** Why the token was refused, when it was. */
  refusal?: string;
}

export interface ProtectedUpstream {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The protected-resource metadata's URL. */
  metadataUrl: string;
  requests: ProtectedRequest[];
  /** From now on refuse every token seen so far (as a server told its grant was revoked). */
  refuseTokensSeen(): void;
  close(): Promise<void>;
}

const EMPTY = { type: "object" as const, properties: {} };

export async function startProtectedUpstream(options: ProtectedUpstreamOptions): Promise<ProtectedUpstream> {
  const jwks = createRemoteJWKSet(new URL(`${options.issuer}/jwks`));
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: ProtectedRequest[] = [];
  const refused = new Set<string>();
  const challengeScope = options.challengeScope ?? "mcp";
  let url = "";
  let metadataUrl = "";

  const challenge = (response: ServerResponse, status: number, parameters: string): void => {
    response.writeHead(status, {
      "content-type": "application/json",
      "www-authenticate": `Bearer ${parameters}, resource_metadata="${metadataUrl}"`,
    });
    response.end(JSON.stringify({ error: status === 401 ? "invalid_token" : "insufficient_scope" }));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? "/", url).pathname;
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          resource: options.resource ?? url,
          authorization_servers: [options.issuer],
          scopes_supported: ["mcp", "admin"],
          bearer_methods_supported: ["header"],
        }),
      );
      return;
    }
    if (path !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const authorization = request.headers.authorization;
    const seen: ProtectedRequest = { authorization, status: 401 };
    requests.push(seen);
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    let body: unknown;
    if (request.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    }
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    if (!token && options.protect === "calls" && call?.method !== "tools/call") {
      seen.status = 200;
      return serve(request, response, body);
    }
    if (!token) return challenge(response, 401, `scope="${challengeScope}"`);
    let claims: { sub?: string; scope?: string; jti?: string };
    try {
      claims = (await jwtVerify(token, jwks, { issuer: options.issuer, audience: url })).payload as typeof claims;
    } catch (error) {
      seen.refusal = error instanceof Error ? error.message : String(error);
      return challenge(response, 401, `error="invalid_token", scope="${challengeScope}"`);
    }
    if (claims.jti && refused.has(claims.jti)) return challenge(response, 401, `error="invalid_token", scope="${challengeScope}"`);
    Object.assign(seen, { subject: claims.sub, scope: claims.scope, tokenId: claims.jti });
    const scopes = (claims.scope ?? "").split(" ");
    if (call?.method === "tools/call" && call.params?.name === "admin_task" && !scopes.includes("admin")) {
      seen.status = 403;
      return challenge(response, 403, `error="insufficient_scope", scope="mcp admin"`);
    }
    seen.status = 200;
    (request as IncomingMessage & { auth?: object }).auth = { token, clientId: "", scopes, extra: { sub: claims.sub } };
    return serve(request, response, body);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> => {
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(request, response, body);
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      response.writeHead(request.method === "POST" ? 400 : 404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, transport) });
    await upstreamServer().connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error("protected upstream:", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  url = `${base}/mcp`;
  metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
  return {
    url,
    metadataUrl,
    requests,
    refuseTokensSeen: () => {
      for (const seen of requests) if (seen.tokenId) refused.add(seen.tokenId);
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function upstreamServer(): Server {
  const server = new Server({ name: "protected-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "whoami", description: "Who the access token is for, and its scopes", inputSchema: EMPTY },
      { name: "admin_task", description: "Needs the admin scope", inputSchema: EMPTY },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const auth = extra.authInfo as { scopes: string[]; extra?: { sub?: string } } | undefined;
    if (request.params.name === "whoami") return { content: [{ type: "text", text: `${auth?.extra?.sub ?? "nobody"} ${auth?.scopes.join(" ") ?? ""}` }] };
    if (request.params.name === "admin_task") return { content: [{ type: "text", text: `admin done for ${auth?.extra?.sub ?? "nobody"}` }] };
    return { content: [{ type: "text", text: "unknown tool" }], isError: true };
  });
  return server;
}
