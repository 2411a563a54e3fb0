// The parts of the OAuth engine (src/upstream/oauth/) the conformance scenarios do not reach
// (test/conformance/client-auth.test.ts runs those): the DPoP key kept across restarts, the
// proof of each request, an assertion grant never sent twice, the same-origin issuer tolerance.
// Real parts: the credential store in a temp state dir, an authorization server on loopback.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { IssuerMismatchError } from "@modelcontextprotocol/client";
import { EmbeddedJWK, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OAuthConfig } from "../../src/config/types.js";
import { describe as describeFailure, UpstreamAuthorizer } from "../../src/upstream/oauth/authorizer.js";
import { SqliteCredentialStore } from "../../src/upstream/oauth/credential-store.js";
import { dpopAlgorithm } from "../../src/upstream/oauth/dpop.js";
import { LoopbackCallbacks } from "../../src/upstream/oauth/loopback-callback.js";
import { sameOriginIssuerMismatch } from "../../src/upstream/oauth/issuer-tolerance.js";
import { PendingSignIns } from "../../src/upstream/oauth/pending-sign-ins.js";
import { StoredOAuthProvider } from "../../src/upstream/oauth/provider.js";
import { silentLogger } from "../../src/util/log.js";
import { until } from "../helpers/until.js";

const SERVER_URL = "https://mcp.example.com/mcp";
const KEY = { server: "remote", identity: "local" };
const DPOP_METADATA = {
  issuer: "https://as.example.com",
  authorization_endpoint: "https://as.example.com/authorize",
  token_endpoint: "https://as.example.com/token",
  response_types_supported: ["code"],
  dpop_signing_alg_values_supported: ["RS256", "ES256"],
};

/** The server's RFC 9728 metadata when it takes DPoP-bound tokens. */
const DPOP_RESOURCE = { resource: SERVER_URL, authorization_servers: ["https://as.example.com"], dpop_signing_alg_values_supported: ["ES256"] };

let dir: string;
let store: SqliteCredentialStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcpx-oauth-engine-"));
  store = SqliteCredentialStore.open(dir);
});

afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

function providerWithDiscovery(metadata: Record<string, unknown>, resource: Record<string, unknown> = DPOP_RESOURCE): StoredOAuthProvider {
  const provider = new StoredOAuthProvider(KEY, SERVER_URL, undefined, store);
  provider.saveDiscoveryState({
    authorizationServerUrl: "https://as.example.com",
    authorizationServerMetadata: metadata as never,
    resourceMetadata: resource as never,
  });
  return provider;
}

describe("DPoP", () => {
  /** An authorizer of SERVER_URL whose discovery found an authorization server and a resource that both take DPoP. */
  function authorizerWithDpopDiscovery(): UpstreamAuthorizer {
    const authorizer = new UpstreamAuthorizer(authorizerDeps(new URL(SERVER_URL), undefined));
    authorizer.provider.saveDiscoveryState({
      authorizationServerUrl: "https://as.example.com",
      authorizationServerMetadata: DPOP_METADATA as never,
      resourceMetadata: DPOP_RESOURCE as never,
    });
    return authorizer;
  }

  it("is used only when the authorization server advertises an algorithm mcpx can sign with, ES256 first", () => {
    expect(dpopAlgorithm(undefined)).toBeUndefined();
    expect(dpopAlgorithm(["HS256", "none"])).toBeUndefined();
    expect(dpopAlgorithm(["RS256", "ES256"])).toBe("ES256");
    expect(dpopAlgorithm(["PS256"])).toBe("PS256");
    const { dpop_signing_alg_values_supported: _, ...plain } = DPOP_METADATA;
    expect(providerWithDiscovery(plain).dpop()).toBeUndefined();
  });

  it("is not used for a server that takes Bearer tokens only, whatever its authorization server offers", async () => {
    // Authorization servers (oidc-provider, Keycloak, ...) advertise DPoP by default: a bound token would be refused.
    const bearerOnly = providerWithDiscovery(DPOP_METADATA, { resource: SERVER_URL, authorization_servers: ["https://as.example.com"] });
    expect(bearerOnly.dpop()).toBeUndefined();
    // ...until the server challenges with the DPoP scheme (RFC 9449 section 7.1)
    bearerOnly.dpopChallenged = true;
    expect((await bearerOnly.dpop())?.thumbprint).toMatch(/^[\w-]{43}$/);
  });

  it("keeps its key with the credentials, so a token bound to it still works after a restart", async () => {
    const first = await providerWithDiscovery(DPOP_METADATA).dpop();
    const afterRestart = await new StoredOAuthProvider(KEY, SERVER_URL, undefined, SqliteCredentialStore.open(dir)).dpop();
    expect(first?.thumbprint).toMatch(/^[\w-]{43}$/);
    expect(afterRestart?.thumbprint).toBe(first?.thumbprint);
    expect(first?.publicJwk).not.toHaveProperty("d");
  });

  it("gives up a key removed with the credentials (a logout): the next sign-in binds a new one, kept again", async () => {
    const provider = providerWithDiscovery(DPOP_METADATA);
    const before = await provider.dpop();
    store.remove(KEY);
    provider.saveDiscoveryState({
      authorizationServerUrl: "https://as.example.com",
      authorizationServerMetadata: DPOP_METADATA as never,
      resourceMetadata: DPOP_RESOURCE as never,
    });
    const after = await provider.dpop();
    expect(after?.thumbprint).not.toBe(before?.thumbprint);
    expect((await new StoredOAuthProvider(KEY, SERVER_URL, undefined, store).dpop())?.thumbprint).toBe(after?.thumbprint);
  });

  it("presents a DPoP-bound token with the DPoP scheme and a fresh proof of each request's method and URL", async () => {
    const authorizer = authorizerWithDpopDiscovery();
    authorizer.provider.saveTokens({ access_token: "bound-token", token_type: "DPoP" });
    const url = new URL(`${SERVER_URL}?session=1`);
    const first = await authorizer.headers(url, "POST");
    const second = await authorizer.headers(url, "POST");
    expect(first.authorization).toBe("DPoP bound-token");
    const proofs = await Promise.all([first.dpop, second.dpop].map((proof) => jwtVerify(proof ?? "", EmbeddedJWK, { typ: "dpop+jwt" })));
    for (const { payload } of proofs) expect(payload).toMatchObject({ htm: "POST", htu: SERVER_URL });
    expect(proofs[0]?.payload.ath).toMatch(/^[\w-]{43}$/);
    expect(proofs[0]?.payload.jti).not.toBe(proofs[1]?.payload.jti);
  });

  it("leaves a Bearer token as it is", async () => {
    const authorizer = authorizerWithDpopDiscovery();
    authorizer.provider.saveTokens({ access_token: "plain", token_type: "Bearer" });
    expect(await authorizer.headers(new URL(SERVER_URL), "GET")).toEqual({ authorization: "Bearer plain" });
  });
});

describe("assertion grants (workload identity, enterprise-managed)", () => {
  it("send the workload's JWT once: after a refusal it is not sent again (SEP-1933), and the sign-in fails", async () => {
    const as = await refusingAuthorizationServer();
    try {
      const assertionFile = path.join(dir, "workload.jwt");
      await writeFile(assertionFile, "eyJhbGciOiJFUzI1NiJ9.e30.c2ln\n");
      const config: OAuthConfig = { grantType: "workload_identity", clientId: "workload-client", assertionFile };
      const authorizer = new UpstreamAuthorizer(authorizerDeps(new URL(`${as.url}/mcp`), config));
      const refused = new Response(null, { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${as.url}/prm"` } });
      await expect(authorizer.unauthorized(refused, undefined)).rejects.toThrow(/signing in to "remote" failed/);
      expect(as.tokenRequests).toHaveLength(1);
      expect(Object.fromEntries(as.tokenRequests[0] ?? [])).toMatchObject({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln",
        client_id: "workload-client",
      });
    } finally {
      await as.close();
    }
  });

  it("say which file could not be read", async () => {
    const config: OAuthConfig = { grantType: "workload_identity", clientId: "c", assertionFile: path.join(dir, "missing.jwt") };
    const provider = new StoredOAuthProvider(KEY, SERVER_URL, config, store);
    await expect(provider.prepareTokenRequest()).rejects.toThrow(`cannot read the workload's JWT from ${path.join(dir, "missing.jwt")} (ENOENT)`);
  });
});

describe("the loopback listener for the redirect", () => {
  it("closes again when the sign-in fails before any person is asked (it would keep `mcpx call`'s process alive)", async () => {
    const as = await refusingAuthorizationServer({ issuer: "https://attacker.example.com" });
    const pending = new PendingSignIns();
    const loopback = new LoopbackCallbacks(pending);
    let listening: URL | undefined;
    const callbacks = { url: async (server: string) => (listening = new URL(await loopback.url(server))).href };
    try {
      const authorizer = new UpstreamAuthorizer({ ...authorizerDeps(new URL(`${as.url}/mcp`), undefined), pending, callbacks });
      const refused = new Response(null, { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${as.url}/prm"` } });
      await expect(authorizer.unauthorized(refused, undefined)).rejects.toThrow(/Issuer mismatch/);
      expect(listening).toBeDefined();
      const port = Number(listening?.port);
      let open = true;
      const probe = (): void => {
        const socket = connect(port, "127.0.0.1");
        socket.once("connect", () => socket.destroy());
        socket.once("error", () => {
          open = false;
        });
      };
      probe();
      await until(
        () => {
          if (open) probe();
          return !open;
        },
        "the loopback listener to close",
        5_000,
      );
    } finally {
      loopback.close();
      await as.close();
    }
  });
});

describe("the issuer of authorization-server metadata", () => {
  it("may name another path of the origin it came from, never another origin", () => {
    expect(sameOriginIssuerMismatch(new IssuerMismatchError("metadata", "http://127.0.0.1:9/tenant1", "http://127.0.0.1:9"))).toBe(true);
    expect(sameOriginIssuerMismatch(new IssuerMismatchError("metadata", "http://127.0.0.1:9/", "http://127.0.0.1:9/oauth"))).toBe(true);
    expect(sameOriginIssuerMismatch(new IssuerMismatchError("metadata", "http://127.0.0.1:9/", "https://attacker.example.com"))).toBe(false);
    expect(sameOriginIssuerMismatch(new IssuerMismatchError("metadata", "http://127.0.0.1:9/", "http://127.0.0.1:10/"))).toBe(false);
    // The authorization response's iss (RFC 9207) is never tolerated.
    expect(sameOriginIssuerMismatch(new IssuerMismatchError("authorization_response", "http://127.0.0.1:9/x", "http://127.0.0.1:9"))).toBe(false);
    expect(sameOriginIssuerMismatch(new Error("Issuer mismatch"))).toBe(false);
  });
});

function authorizerDeps(serverUrl: URL, config: OAuthConfig | undefined) {
  return {
    server: KEY.server,
    identity: KEY.identity,
    serverUrl,
    config,
    store,
    callbacks: { url: async () => "http://127.0.0.1:1/oauth/callback" },
    pending: new PendingSignIns(),
    ask: async () => "cancel" as const,
    done: () => {},
    waitMs: 5_000,
    log: silentLogger,
  };
}

/** Protected-resource and authorization-server metadata, and a token endpoint that refuses every grant with invalid_grant. */
async function refusingAuthorizationServer(
  options: { issuer?: string } = {},
): Promise<{ url: string; tokenRequests: URLSearchParams[]; close(): Promise<void> }> {
  const tokenRequests: URLSearchParams[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/prm") return json(200, { resource: `${url}/mcp`, authorization_servers: [url] });
      if (request.url === "/.well-known/oauth-authorization-server")
        return json(200, {
          issuer: options.issuer ?? url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          response_types_supported: ["code"],
          grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      if (request.url === "/token") {
        tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
        return json(400, { error: "invalid_grant", error_description: "assertion rejected" });
      }
      json(404, { error: "not_found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, tokenRequests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("a failed sign-in in words", () => {
  it("never repeats the issuer a redirect named in a mix-up (attacker-controlled), only what happened", () => {
    const mixUp = new IssuerMismatchError("authorization_response", "https://as.example.com", "https://evil.example/<script>");
    expect(describeFailure(mixUp)).not.toContain("evil.example");
    expect(describeFailure(mixUp)).toMatch(/another authorization server/);
    // the metadata check names issuers the operator's own discovery found: kept as the SDK says it
    expect(describeFailure(new IssuerMismatchError("metadata", "https://a.example", "https://b.example"))).toContain("b.example");
  });
});

describe("the token store read per request", () => {
  it("is not read again for a server that had no token, until it refuses; a token another process saved meanwhile is then used without a sign-in", async () => {
    const asked: string[] = [];
    const authorizer = new UpstreamAuthorizer({
      ...authorizerDeps(new URL(SERVER_URL), undefined),
      ask: async () => {
        asked.push("asked");
        return "cancel" as const;
      },
    });
    expect(await authorizer.headers(new URL(SERVER_URL), "POST")).toEqual({});
    // another mcpx process signs in (mcpx auth login): this one does not read the store for it...
    new StoredOAuthProvider(KEY, SERVER_URL, undefined, store).saveTokens({ access_token: "from-login", token_type: "Bearer" });
    expect(await authorizer.headers(new URL(SERVER_URL), "POST")).toEqual({});
    // ...until the server refuses the request sent without it: then it is read and used, nobody asked
    const refused = new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="https://mcp.example.com/prm"' } });
    await authorizer.unauthorized(refused, 1);
    expect(await authorizer.headers(new URL(SERVER_URL), "POST")).toEqual({ authorization: "Bearer from-login" });
    expect(asked).toEqual([]);
  });
});
