/**
 * The test authorization server (test/helpers/authorization-server.ts) does what the identity tests
 * and the upstream OAuth tests rely on: JWT access tokens for a resource, verifiable against its
 * published JWKS, by client credentials and by the authorization code flow with PKCE completed
 * without a browser.
 */
import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";

const RESOURCE = "http://127.0.0.1:1/mcp";
const REDIRECT = "http://127.0.0.1:2/oauth/callback";
let op: RunningAuthorizationServer;

beforeAll(async () => {
  op = await startAuthorizationServer({
    clients: [
      { client_id: "machine", client_secret: "machine-secret-0123456789", grant_types: ["client_credentials"], redirect_uris: [], response_types: [] },
      {
        client_id: "app",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [REDIRECT],
        response_types: ["code"],
      },
    ],
  });
});
afterAll(async () => op.close());

describe("the test authorization server", () => {
  it("issues a JWT for a resource by client credentials, its subject the client", async () => {
    const token = await op.clientCredentialsToken({ clientId: "machine", clientSecret: "machine-secret-0123456789", resource: RESOURCE });
    const jwks = createRemoteJWKSet(new URL(`${op.issuer}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: op.issuer, audience: RESOURCE });
    expect(payload.sub).toBe("machine");
    expect(payload.scope).toBe("mcp");
    expect(protectedHeader.alg).toBe("RS256");
  });

  it("completes the authorization code flow with PKCE and a resource, without a browser", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = new URL(`${op.issuer}/auth`);
    for (const [key, value] of Object.entries({
      client_id: "app",
      response_type: "code",
      redirect_uri: REDIRECT,
      scope: "openid offline_access mcp",
      resource: RESOURCE,
      state: "s1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      prompt: "consent",
    }))
      authorize.searchParams.set(key, value);
    const back = await op.authorize(authorize, { login: "bob" });
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("s1");
    const code = back.searchParams.get("code")!;
    const reply = await fetch(`${op.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: "app",
        code_verifier: verifier,
        resource: RESOURCE,
      }),
    });
    const tokens = (await reply.json()) as { access_token: string; refresh_token?: string };
    expect(reply.status).toBe(200);
    expect(tokens.refresh_token).toBeTypeOf("string");
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${op.issuer}/jwks`)), { issuer: op.issuer, audience: RESOURCE });
    expect(payload.sub).toBe("bob");
  });
});
