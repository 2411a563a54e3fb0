/**
 * How mcpx finds and uses an issuer's keys (host/identity-issuer.ts), against the real
 * authorization server of the tests: discovery through the well-known metadata (RFC 8414, then
 * OpenID), a configured `jwksUri`, an issuer whose metadata names another issuer, and one that
 * is out of reach (then back).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IdentityIssuer, metadataUrls } from "../../src/host/identity-issuer.js";
import { silentLogger } from "../../src/util/log.js";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";

const RESOURCE = "http://127.0.0.1:9/mcp";
const SECRET = "machine-secret-0123456789abcdef";
let op: RunningAuthorizationServer;
let token: string;

beforeAll(async () => {
  op = await startAuthorizationServer({
    clients: [{ client_id: "machine", client_secret: SECRET, grant_types: ["client_credentials"], redirect_uris: [], response_types: [] }],
  });
  token = await op.clientCredentialsToken({ clientId: "machine", clientSecret: SECRET, resource: RESOURCE });
});
afterAll(async () => op?.close());

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("the issuer's keys", () => {
  it("are looked for at RFC 8414's place, then OpenID discovery's (appended and inserted)", () => {
    expect(metadataUrls("https://id.example")).toEqual([
      "https://id.example/.well-known/oauth-authorization-server",
      "https://id.example/.well-known/openid-configuration",
    ]);
    expect(metadataUrls("https://id.example/tenant/1")).toEqual([
      "https://id.example/.well-known/oauth-authorization-server/tenant/1",
      "https://id.example/tenant/1/.well-known/openid-configuration",
      "https://id.example/.well-known/openid-configuration/tenant/1",
    ]);
  });

  it("come from the issuer's metadata, and the identity is the issuer and the subject", async () => {
    const issuer = new IdentityIssuer({ issuer: op.issuer, audience: RESOURCE }, silentLogger);
    expect(await issuer.verify(token)).toEqual({ identity: `${op.issuer}#machine`, scopes: ["mcp"] });
    // RFC 8414's place is asked first; OpenID discovery's only when it has nothing.
    const asked = op.requests.map((seen) => seen.url).filter((path) => path.startsWith("/.well-known/"));
    expect(asked[0]).toBe("/.well-known/oauth-authorization-server");
  });

  it("come from jwksUri when it is configured, without metadata", async () => {
    const before = op.requests.length;
    const issuer = new IdentityIssuer({ issuer: op.issuer, audience: RESOURCE, jwksUri: `${op.issuer}/jwks` }, silentLogger);
    expect(await issuer.verify(token)).toEqual({ identity: `${op.issuer}#machine`, scopes: ["mcp"] });
    expect(op.requests.slice(before).filter((seen) => seen.url.startsWith("/.well-known/"))).toEqual([]);
  });

  it("are refused from metadata that names another issuer: nobody is let in, and the reply says why", async () => {
    const impostor = await listen((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: op.issuer, jwks_uri: `${op.issuer}/jwks` }));
    });
    try {
      const issuer = new IdentityIssuer({ issuer: impostor.url, audience: RESOURCE }, silentLogger);
      const verdict = await issuer.verify(token);
      expect(verdict).toMatchObject({ unavailable: expect.stringContaining(`names the issuer "${op.issuer}", not ${impostor.url}`) });
    } finally {
      impostor.server.close();
    }
  });

  it("out of reach: 'unavailable', and tried again on the next token", async () => {
    let up = false;
    const proxy = await listen((request, response) => {
      if (!up) return void response.writeHead(503).end();
      const document = { issuer: proxy.url, jwks_uri: `${op.issuer}/jwks` };
      if (request.url === "/.well-known/oauth-authorization-server") return void response.writeHead(200).end(JSON.stringify(document));
      response.writeHead(404).end();
    });
    try {
      const issuer = new IdentityIssuer({ issuer: proxy.url, audience: RESOURCE }, silentLogger);
      expect(await issuer.verify(token)).toMatchObject({ unavailable: expect.stringContaining("no authorization server metadata") });
      up = true;
      // The provider's token names the provider as issuer, not this one: refused, but now the keys were had.
      expect(await issuer.verify(token)).toMatchObject({ refused: "invalid_token", why: expect.stringContaining("iss") });
    } finally {
      proxy.server.close();
    }
  });
});
