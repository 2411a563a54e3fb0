/**
 * Issue 16 item 4, end to end: `mcpx serve --http` with `http.auth.issuer` is an OAuth protected
 * resource (RFC 9728) in front of a real authorization server (oidc-provider on loopback), and
 * each identity (issuer + subject) owns its sessions and its questions. Hosts are the official
 * SDKs (1.x and 2.x) carrying the provider's JWT access tokens; the tokens of two confidential
 * clients are two identities, "alice" and "bob".
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";
import { EventStream, post, type Frame } from "../helpers/raw-http.js";
import { askingStdio, startAskingHttp, toolJson } from "../relay/support.js";
import type { HttpFixture } from "../helpers/upstreams.js";
import { elicitListAll } from "../broker-e2e/support.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { until } from "../helpers/until.js";
import { haveChromium, launchChromium } from "../helpers/browser.js";

const SECRET = "client-secret-0123456789abcdef";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const OPERATOR_TOKEN = "operator-0123456789abcdef0123456789";

let op: RunningAuthorizationServer;
let web: HttpFixture;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let alice: string;
let bob: string;
const closers: Array<() => Promise<void> | void> = [];

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

async function sdk1Host(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport; logs: string[] }> {
  const client = new Client({ name: "sdk1-host", version: "1.0.0" }, { capabilities: {} });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(JSON.stringify(notification.params.data));
  });
  const transport = new StreamableHTTPClientTransport(mcpx.url, { requestInit: { headers: bearer(token) } });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport, logs };
}

async function rest(path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(path, mcpx.url), {
    method: body === undefined ? "GET" : "POST",
    headers: { ...bearer(token), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

async function events(token: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(new URL("/v1/events", mcpx.url), { headers: bearer(token), signal: controller.signal });
  expect(response.status).toBe(200);
  const stream = new EventStream(response, controller);
  closers.push(() => stream.close());
  return stream;
}

beforeAll(async () => {
  op = await startAuthorizationServer({
    clients: ["alice", "bob", "stranger"].map((client_id) => ({
      client_id,
      client_secret: SECRET,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
    })),
  });
  web = await startAskingHttp();
  config = writeConfig({
    // `web` over HTTP: each identity gets a connection of its own; `ask` on stdio is shared.
    mcpServers: { ask: askingStdio(), web: { url: web.url } },
    elicitation: { ttlSeconds: 60 },
    http: { auth: { issuer: op.issuer, scopes: ["mcp"], token: OPERATOR_TOKEN } },
  });
  mcpx = await startMcpxHttp(config);
  // The audience is mcpx's own /mcp URL by default: the resource the tokens are asked for.
  alice = await op.clientCredentialsToken({ clientId: "alice", clientSecret: SECRET, resource: mcpx.url.href });
  bob = await op.clientCredentialsToken({ clientId: "bob", clientSecret: SECRET, resource: mcpx.url.href });
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await mcpx?.close();
  await web?.close();
  await op?.close();
});

describe("/mcp as an OAuth protected resource", () => {
  it("answers 401 without a token, pointing at its protected-resource metadata, which needs no credential", async () => {
    const reply = await post(mcpx.url, INITIALIZE);
    expect(reply.status).toBe(401);
    const challenge = reply.headers.get("www-authenticate") ?? "";
    const metadataUrl = `${mcpx.url.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    expect(challenge).toContain('scope="mcp"');
    expect(challenge).not.toContain("error=");

    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const document = await fetch(new URL(path, mcpx.url));
      expect(document.status).toBe(200);
      expect(document.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await document.json()).toEqual({
        resource: mcpx.url.href,
        authorization_servers: [op.issuer],
        scopes_supported: ["mcp"],
        bearer_methods_supported: ["header"],
        resource_name: "mcpx",
      });
    }
    // The REST API is the same resource: same refusal.
    const api = await fetch(new URL("/v1/questions", mcpx.url));
    expect(api.status).toBe(401);
    expect(api.headers.get("www-authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
  });

  it("refuses with 401 invalid_token a token of another audience, expired, of another issuer, or signed HS256", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: op.issuer, sub: "alice", aud: mcpx.url.href, scope: "mcp", iat: now, exp: now + 600 };
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: op.kid }).sign(new TextEncoder().encode(SECRET));
    const refused: Record<string, string> = {
      "another audience": await op.clientCredentialsToken({ clientId: "alice", clientSecret: SECRET, resource: "http://127.0.0.1:1/mcp" }),
      expired: await op.sign({ ...claims, iat: now - 7200, exp: now - 3600 }),
      "another issuer": await op.sign({ ...claims, iss: "http://127.0.0.1:1" }),
      "signed HS256": hs256,
      "not a JWT": "0123456789abcdef0123456789abcdef-nope",
    };
    for (const [why, token] of Object.entries(refused)) {
      const reply = await post(mcpx.url, INITIALIZE, bearer(token));
      expect(reply.status, why).toBe(401);
      expect(reply.headers.get("www-authenticate"), why).toContain('error="invalid_token"');
      expect((await fetch(new URL("/v1/questions", mcpx.url), { headers: bearer(token) })).status, why).toBe(401);
    }
    // The same claims under the provider's own key pass: only what was named above was wrong.
    expect((await post(mcpx.url, INITIALIZE, bearer(await op.sign(claims)))).status).toBe(200);
  });

  it("refuses with 403 insufficient_scope a valid token without the configured scopes", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await op.sign({ iss: op.issuer, sub: "alice", aud: mcpx.url.href, scope: "other", iat: now, exp: now + 600 });
    const reply = await post(mcpx.url, INITIALIZE, bearer(token));
    expect(reply.status).toBe(403);
    expect(reply.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(reply.headers.get("www-authenticate")).toContain('scope="mcp"');
  });

  it("serves SDK 1.x and 2.x hosts that carry the provider's tokens, and the operator's static credential", async () => {
    const { client } = await sdk1Host(alice);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ask__ask_form");

    const modern = new ModernClient({ name: "sdk2-host", version: "1.0.0" }, { capabilities: {} });
    await modern.connect(new ModernHttp(mcpx.url, { requestInit: { headers: bearer(bob) } }));
    closers.push(() => modern.close());
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("ask__ask_form");

    expect((await post(mcpx.url, INITIALIZE, bearer(OPERATOR_TOKEN))).status).toBe(200);
  });
});

describe("two identities kept apart", () => {
  it("a session id of alice's is unknown (404) to bob, and still alice's", async () => {
    const { transport, client } = await sdk1Host(alice);
    const session = transport.sessionId!;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const asBob = await post(mcpx.url, list, { ...bearer(bob), ...headers });
    expect(asBob.status).toBe(404);
    const unknown = await post(mcpx.url, list, { ...bearer(bob), ...headers, "mcp-session-id": "no-such-session" });
    // Exactly as an unknown session: the same status and the same words.
    expect(asBob.body).toBe(unknown.body);
    // Nor may the operator's credential use it, nor bob end it.
    expect((await post(mcpx.url, list, { ...bearer(OPERATOR_TOKEN), ...headers })).status).toBe(404);
    const deleted = await fetch(mcpx.url, { method: "DELETE", headers: { ...bearer(bob), ...headers } });
    expect(deleted.status).toBe(404);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("alice's question is invisible and unanswerable for bob (REST, events, by id) and for the operator; bob's own is his", async () => {
    const aliceEvents = await events(alice);
    const bobEvents = await events(bob);
    const { client: aliceHost, logs: aliceLogs } = await sdk1Host(alice);
    const { client: bobHost } = await sdk1Host(bob);

    const aliceCall = aliceHost.callTool({ name: "web__ask_form", arguments: { message: "Alice, your name?" } });
    const opened = (await aliceEvents.waitFor((frame: Frame) => frame.message === "Alice, your name?" && frame.state === "pending")) as { id: string };
    const id = opened.id;

    const mine = await rest("/v1/questions", alice);
    expect(mine.body.map((view: { id: string }) => view.id)).toContain(id);
    for (const token of [bob, OPERATOR_TOKEN]) {
      expect((await rest("/v1/questions?all=1", token)).body.map((view: { id: string }) => view.id)).not.toContain(id);
      expect((await rest(`/v1/questions/${id}`, token)).status).toBe(404);
      const answer = await rest(`/v1/questions/${id}/answer`, token, { action: "accept", content: { name: "Mallory" } });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("UNKNOWN_QUESTION");
      expect((await rest(`/v1/questions/${id}/done`, token, {})).status).toBe(404);
    }
    // The CLI acts as the operator ("local"): it does not see alice's question either.
    expect((await elicitListAll(config)).map((view) => view.id)).not.toContain(id);

    // Bob's own question reaches bob's stream; alice's never did (events go out in order).
    const bobCall = bobHost.callTool({ name: "web__ask_form", arguments: { message: "Bob, your name?" } });
    const bobs = (await bobEvents.waitFor((frame: Frame) => frame.message === "Bob, your name?")) as { id: string };
    expect(bobEvents.messages.map((frame) => frame.id)).not.toContain(id);
    expect((await rest(`/v1/questions/${bobs.id}`, bob)).status).toBe(200);
    expect((await rest(`/v1/questions/${bobs.id}`, alice)).status).toBe(404);

    // Alice's host, which cannot be asked forms, was told where she can answer: not the operator's CLI.
    await until(() => aliceLogs.some((line) => line.includes(id)), "alice's host to be told where her question waits");
    const told = aliceLogs.find((line) => line.includes(id)) ?? "";
    expect(told).toContain("POST /v1/page-link");
    expect(told).not.toContain("mcpx elicit");

    // Each answers their own; the calls complete with their own answers.
    expect((await rest(`/v1/questions/${id}/answer`, alice, { action: "accept", content: { name: "Alice" } })).status).toBe(200);
    expect((await rest(`/v1/questions/${bobs.id}/answer`, bob, { action: "accept", content: { name: "Bob" } })).status).toBe(200);
    expect(toolJson(await aliceCall)).toEqual({ action: "accept", content: { name: "Alice" } });
    expect(toolJson(await bobCall)).toEqual({ action: "accept", content: { name: "Bob" } });
    expect(aliceEvents.messages.map((frame) => frame.id)).not.toContain(bobs.id);

    // Each reached the HTTP server on a connection of its identity's own.
    const ready = mcpx
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"upstream ready"') && line.includes('"server":"web"'));
    expect(ready.some((line) => line.includes(`"identity":"${op.issuer}#alice"`))).toBe(true);
    expect(ready.some((line) => line.includes(`"identity":"${op.issuer}#bob"`))).toBe(true);
  });

  it("a question no single identity can be proven to own (two identities' calls on a shared stdio server) is the operator's alone", async () => {
    const { client: aliceHost } = await sdk1Host(alice);
    const { client: bobHost } = await sdk1Host(bob);
    const operatorEvents = await events(OPERATOR_TOKEN);
    const aliceEvents = await events(alice);
    const first = aliceHost.callTool({ name: "ask__ask_form", arguments: { message: "Whose is this one?" } });
    // Alice's call was the only one in flight: the question is hers.
    const mine = (await aliceEvents.waitFor((frame: Frame) => frame.message === "Whose is this one?")) as { id: string };
    const second = bobHost.callTool({ name: "ask__ask_form", arguments: { message: "And this one?" } });
    const shared = (await operatorEvents.waitFor((frame: Frame) => frame.message === "And this one?")) as { id: string };
    // Events go out in order: the operator's stream, which has the later one, never had alice's.
    expect(operatorEvents.messages.map((frame) => frame.id)).not.toContain(mine.id);
    for (const token of [alice, bob]) expect((await rest(`/v1/questions/${shared.id}`, token)).status).toBe(404);
    expect((await elicitListAll(config)).map((view) => view.id)).toContain(shared.id);
    expect((await rest(`/v1/questions/${shared.id}/answer`, OPERATOR_TOKEN, { action: "decline" })).status).toBe(200);
    expect((await rest(`/v1/questions/${mine.id}/answer`, alice, { action: "decline" })).status).toBe(200);
    expect(toolJson(await first)).toEqual({ action: "decline" });
    expect(toolJson(await second)).toEqual({ action: "decline" });
  });

  it("a 2026-07-28 host's requestState is its identity's: bob's retry with alice's is refused as a call that ended", async () => {
    const V = "2026-07-28";
    const call = { name: "ask__ask_form", arguments: { message: "Modern alice?" } };
    const meta = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const send = async (id: number, token: string, extra: Record<string, unknown> = {}) => {
      const reply = await post(
        mcpx.url,
        { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, ...call, ...extra } },
        { ...bearer(token), "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": call.name },
      );
      for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
      return reply.messages.find((frame) => frame.id === id) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const first = await send(1, alice);
    expect(first.result?.resultType).toBe("input_required");
    const [key] = Object.keys(first.result?.inputRequests as object);
    const retry = { requestState: first.result?.requestState, inputResponses: { [key!]: { action: "accept", content: { name: "Mallory" } } } };
    const asBob = await send(2, bob, retry);
    expect(asBob.error?.code).toBe(-32602);
    expect(asBob.error?.message).toMatch(/no longer open/);
    const asAlice = await send(3, alice, { ...retry, inputResponses: { [key!]: { action: "accept", content: { name: "Alice" } } } });
    expect(asAlice.result?.resultType).toBe("complete");
    expect(toolJson(asAlice.result)).toEqual({ action: "accept", content: { name: "Alice" } });
  });

  it("never logs a token", () => {
    const log = mcpx.stderr();
    for (const token of [alice, bob, OPERATOR_TOKEN]) expect(log).not.toContain(token);
    expect(readFileSync(join(config.env.MCPX_STATE_DIR!, "api-token"), "utf8").length).toBeGreaterThan(0);
  });
});

const chromiumHere = haveChromium("test/host/identity-http.test.ts");

describe("the page for an identity", () => {
  it("a link alice asks for (POST /v1/page-link) signs a tab in as alice: her questions, not bob's; it works once", async () => {
    const link = await rest("/v1/page-link", alice, {});
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(url.origin).toBe(mcpx.url.origin);
    const code = url.hash.replace(/^#code=/, "");
    const trade = async (): Promise<Response> =>
      fetch(new URL("/v1/page-session", mcpx.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    const first = await trade();
    expect(first.status).toBe(200);
    const tab = ((await first.json()) as { token: string }).token;
    expect((await trade()).status).toBe(401);
    // A code changed to name another identity is refused: the identity is under the MAC.
    const [issued, nonce, mac] = code.split(".");
    const forged = `${issued}.${nonce}.${mac}.${Buffer.from(`${op.issuer}#bob`).toString("base64url")}`;
    const forgedTrade = await fetch(new URL("/v1/page-session", mcpx.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: forged }),
    });
    expect(forgedTrade.status).toBe(401);

    const { client: aliceHost } = await sdk1Host(alice);
    const { client: bobHost } = await sdk1Host(bob);
    const aliceEvents = await events(alice);
    const bobEvents = await events(bob);
    const aliceCall = aliceHost.callTool({ name: "web__ask_form", arguments: { message: "Alice on the page?" } });
    const bobCall = bobHost.callTool({ name: "web__ask_form", arguments: { message: "Bob on the page?" } });
    const hers = (await aliceEvents.waitFor((frame: Frame) => frame.message === "Alice on the page?")) as { id: string };
    const his = (await bobEvents.waitFor((frame: Frame) => frame.message === "Bob on the page?")) as { id: string };
    const listed = (await rest("/v1/questions", tab)).body.map((view: { id: string }) => view.id);
    expect(listed).toContain(hers.id);
    expect(listed).not.toContain(his.id);
    expect((await rest(`/v1/questions/${his.id}/answer`, tab, { action: "decline" })).status).toBe(404);

    if (chromiumHere) {
      // The page itself, in headless Chromium, with a fresh link of alice's.
      const fresh = (await rest("/v1/page-link", alice, {})).body.url as string;
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext()).newPage();
        await page.goto(fresh);
        const card = page.locator("article", { has: page.locator("h2", { hasText: "Alice on the page?" }) });
        await card.waitFor({ timeout: 15_000 });
        expect(await page.locator("article", { has: page.locator("h2", { hasText: "Bob on the page?" }) }).count()).toBe(0);
        await card.getByLabel("Name").fill("Alice via the page");
        await card.getByRole("button", { name: "Accept" }).click();
        expect(toolJson(await aliceCall)).toEqual({ action: "accept", content: { name: "Alice via the page" } });
        // Bob's question never reached alice's tab, even as it settles.
        expect((await rest(`/v1/questions/${his.id}/answer`, bob, { action: "decline" })).status).toBe(200);
        await bobEvents.waitFor((frame: Frame) => frame.id === his.id && frame.state === "answered");
        expect(await page.locator("article", { has: page.locator("h2", { hasText: "Bob on the page?" }) }).count()).toBe(0);
      } finally {
        await browser.close();
      }
    } else {
      expect((await rest(`/v1/questions/${hers.id}/answer`, tab, { action: "accept", content: { name: "Alice via the page" } })).status).toBe(200);
      expect(toolJson(await aliceCall)).toEqual({ action: "accept", content: { name: "Alice via the page" } });
      expect((await rest(`/v1/questions/${his.id}/answer`, bob, { action: "decline" })).status).toBe(200);
    }
    expect(toolJson(await bobCall)).toEqual({ action: "decline" });
  });
});
