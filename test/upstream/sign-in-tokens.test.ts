/**
 * What mcpx does with the tokens of a server that requires OAuth, against a real authorization
 * server (oidc-provider) and an upstream that verifies its JWTs: a short-lived access token is
 * refreshed without a question; a revoked grant (refresh refused) asks for a new sign-in; an
 * `insufficient_scope` refusal asks for a sign-in for the union of the scopes and the call goes
 * through; protected-resource metadata naming another resource is refused before any token is
 * asked for; and one server's token is never sent to another server or another authorization
 * server. The person is an SDK 1.x host (2025-11-25, `elicitation.url`) that consents to every
 * sign-in and opens its URL.
 */
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteCredentialStore } from "../../src/upstream/oauth/credential-store.js";
import { writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer, type AuthorizationServerOptions, type RunningAuthorizationServer } from "../helpers/authorization-server.js";
import { startProtectedUpstream, type ProtectedUpstream, type ProtectedUpstreamOptions } from "../helpers/protected-upstream.js";
import { stdioHost, type RecordingHost } from "../relay/support.js";
import { runMcpx } from "../helpers/upstreams.js";
import { storedQuestions } from "../broker-e2e/support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function authorizationServer(options: AuthorizationServerOptions = {}): Promise<RunningAuthorizationServer> {
  const as = await startAuthorizationServer(options);
  closers.push(() => as.close());
  return as;
}

async function protectedUpstream(options: ProtectedUpstreamOptions): Promise<ProtectedUpstream> {
  const upstream = await startProtectedUpstream({ protect: "calls", ...options });
  closers.push(() => upstream.close());
  return upstream;
}

interface Person {
  host: RecordingHost & { log(): string };
  config: TempConfig;
  /** The sign-in URLs the host was asked to open, in order. */
  asked: URL[];
  /** The sign-ins finished (each resolves once the redirect came back to mcpx). */
  signIns: Promise<unknown>[];
}

/** An inline host on `mcpx serve` that consents to every sign-in and signs in at whichever authorization server the URL names. */
async function person(servers: Record<string, { url: string }>, signInAt: (url: URL) => RunningAuthorizationServer): Promise<Person> {
  const config = writeConfig({ mcpServers: servers, elicitation: { ttlSeconds: 60 } });
  const asked: URL[] = [];
  const signIns: Promise<unknown>[] = [];
  const host = await stdioHost(config, {
    capabilities: { elicitation: { form: {}, url: {} } },
    setup: (client) =>
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const url = new URL((request.params as { url: string }).url);
        asked.push(url);
        signIns.push(signInAt(url).signIn(url));
        return { action: "accept" };
      }),
  });
  closers.push(() => host.close());
  return { host, config, asked, signIns };
}

async function call(host: RecordingHost, name: string): Promise<string> {
  const result = (await host.client.callTool({ name, arguments: {} })) as { content: Array<{ text?: string }>; isError?: boolean };
  const text = result.content.map((block) => block.text ?? "").join("\n");
  if (result.isError) throw new Error(text);
  return text;
}

function storedTokens(config: TempConfig, server: string): { access_token: string; refresh_token?: string; scope?: string } {
  const store = SqliteCredentialStore.open(config.env.MCPX_STATE_DIR!);
  try {
    return store.read({ server, identity: "local" })!.tokens as { access_token: string; refresh_token?: string };
  } finally {
    store.close();
  }
}

describe("tokens of a server that requires OAuth", () => {
  it("refreshes a short-lived access token without a question", async () => {
    // 30 s tokens: within the minute mcpx refreshes ahead of expiry, so every request refreshes.
    const as = await authorizationServer({ accessTokenTtlSeconds: 30 });
    const upstream = await protectedUpstream({ issuer: as.issuer });
    const { host, config, asked, signIns } = await person({ crm: { url: upstream.url } }, () => as);
    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    await Promise.all(signIns);
    const first = storedTokens(config, "crm").access_token;
    const refreshesBefore = as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token").length;

    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    expect(asked).toHaveLength(1);
    expect(as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token").length).toBeGreaterThan(refreshesBefore);
    expect(storedTokens(config, "crm").access_token).not.toBe(first);
    const used = upstream.requests.filter((seen) => seen.status === 200 && seen.tokenId).map((seen) => seen.tokenId);
    expect(new Set(used).size).toBeGreaterThan(1);
    // mcpx logged at debug level all along: no token in its log.
    const { access_token, refresh_token } = storedTokens(config, "crm");
    expect(host.log()).not.toContain(first);
    expect(host.log()).not.toContain(access_token);
    expect(host.log()).not.toContain(refresh_token);
  }, 60_000);

  it("refreshes, in a new process, a token another process signed in for, keeping the client's registration", async () => {
    const as = await authorizationServer({ accessTokenTtlSeconds: 30 });
    const upstream = await protectedUpstream({ issuer: as.issuer });
    const { host, config, signIns } = await person({ crm: { url: upstream.url } }, () => as);
    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    await Promise.all(signIns);
    await host.close();
    const registrations = as.requests.filter((seen) => seen.url === "/reg").length;

    const next = await runMcpx(["call", "crm.whoami", "{}", "--config", config.file], config);
    expect(next.stdout).toMatch(/^alice /);
    expect(next.code).toBe(0);
    expect(await storedQuestions(config)).toHaveLength(1);
    expect(as.requests.filter((seen) => seen.url === "/reg")).toHaveLength(registrations);
  }, 60_000);

  it("asks for a new sign-in when the grant was revoked and the refresh is refused", async () => {
    const as = await authorizationServer();
    const upstream = await protectedUpstream({ issuer: as.issuer });
    const { host, config, asked, signIns } = await person({ crm: { url: upstream.url } }, () => as);
    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    await Promise.all(signIns);
    const store = SqliteCredentialStore.open(config.env.MCPX_STATE_DIR!);
    const credentials = store.read({ server: "crm", identity: "local" })!;
    store.close();
    await as.revoke((credentials.tokens as { refresh_token: string }).refresh_token, (credentials.clientInformation as { client_id: string }).client_id);
    upstream.refuseTokensSeen();

    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    expect(asked).toHaveLength(2);
    expect(as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token").length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it("steps up on insufficient_scope: a second sign-in for the union of the scopes, then the call goes through", async () => {
    const as = await authorizationServer({ resourceScopes: ["mcp", "admin"] });
    const upstream = await protectedUpstream({ issuer: as.issuer });
    const { host, asked, signIns } = await person({ crm: { url: upstream.url } }, () => as);
    expect(await call(host, "crm__whoami")).toMatch(/^alice mcp$/);
    expect(asked[0]!.searchParams.get("scope")?.split(" ")).not.toContain("admin");

    expect(await call(host, "crm__admin_task")).toBe("admin done for alice");
    await Promise.all(signIns);
    expect(asked).toHaveLength(2);
    expect(asked[1]!.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["mcp", "admin"]));
    expect(upstream.requests.filter((seen) => seen.status === 403)).toHaveLength(1);
  }, 60_000);

  it("refuses protected-resource metadata that names another resource, before asking for any token", async () => {
    const as = await authorizationServer();
    const upstream = await protectedUpstream({ issuer: as.issuer, resource: "http://127.0.0.1:9/elsewhere" });
    const { host, asked } = await person({ crm: { url: upstream.url } }, () => as);
    const failure = await call(host, "crm__whoami").then(
      (text) => `succeeded: ${text}`,
      (error: unknown) => (error as Error).message,
    );
    expect(failure).toMatch(/sign.*crm/i);
    expect(failure).toMatch(/resource/i);
    expect(asked).toEqual([]);
    expect(as.requests.filter((seen) => seen.url.startsWith("/reg") || seen.url.startsWith("/token") || seen.url.startsWith("/auth"))).toEqual([]);
  }, 60_000);

  it("never sends one server's token to another server or another authorization server", async () => {
    const first = await authorizationServer();
    const second = await authorizationServer({ loginAs: "bob" });
    const crm = await protectedUpstream({ issuer: first.issuer });
    const wiki = await protectedUpstream({ issuer: second.issuer });
    const byOrigin = (url: URL): RunningAuthorizationServer => (url.origin === first.issuer ? first : second);
    const { host, config, signIns } = await person({ crm: { url: crm.url }, wiki: { url: wiki.url } }, byOrigin);
    expect(await call(host, "crm__whoami")).toMatch(/^alice /);
    expect(await call(host, "wiki__whoami")).toMatch(/^bob /);
    await Promise.all(signIns);
    const crmTokens = storedTokens(config, "crm");
    const wikiTokens = storedTokens(config, "wiki");
    const carries = (header: string | undefined, token: string | undefined): boolean => token !== undefined && (header ?? "").includes(token);
    expect(wiki.requests.filter((seen) => carries(seen.authorization, crmTokens.access_token))).toEqual([]);
    expect(crm.requests.filter((seen) => carries(seen.authorization, wikiTokens.access_token))).toEqual([]);
    for (const [as, other] of [
      [second, crmTokens],
      [first, wikiTokens],
    ] as const) {
      const leaked = as.requests.filter((seen) =>
        [other.access_token, other.refresh_token].some((token) => carries(seen.authorization, token) || (token !== undefined && seen.url.includes(token))),
      );
      expect(leaked).toEqual([]);
    }
    // wiki's first request went without any token.
    expect(wiki.requests[0]!.authorization).toBeUndefined();
  }, 60_000);
});
