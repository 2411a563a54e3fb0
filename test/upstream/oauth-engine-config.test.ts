// A server's `oauth` entry (src/config/oauth-entry.ts): the grants without a person and what each
// needs, read from the config a user writes, with a clear error for what is missing or misplaced.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/load.js";

const FILE = "conf/mcpx.json";
const DIR = path.resolve("conf");

const load = (oauth: unknown) => configFromObject({ mcpServers: { remote: { url: "https://mcp.example.com/mcp", oauth } } }, FILE, {});
const oauthOf = (oauth: unknown) => load(oauth).servers[0]?.oauth;

/** A server whose entry is wrong is left out, saying why (the rest of the config still loads). */
function problems(oauth: unknown): string[] {
  const config = load(oauth);
  expect(config.servers).toEqual([]);
  return (config.leftOut ?? []).map((server) => server.why);
}

describe("oauth grants without a person", () => {
  it("reads enterprise_managed with its IdP, files relative to the config's directory", () => {
    expect(
      oauthOf({
        grantType: "enterprise_managed",
        clientId: "mcpx",
        clientSecret: "s",
        idp: { tokenEndpoint: "https://idp.example.com/token", clientId: "mcpx-at-idp", idTokenFile: "sso/id_token" },
      }),
    ).toEqual({
      grantType: "enterprise_managed",
      clientId: "mcpx",
      clientSecret: "s",
      idp: { tokenEndpoint: "https://idp.example.com/token", clientId: "mcpx-at-idp", idTokenFile: path.join(DIR, "sso/id_token") },
    });
  });

  it("reads workload_identity with its assertion file", () => {
    expect(oauthOf({ grantType: "workload_identity", clientId: "w", assertionFile: "/var/run/secrets/token" })).toEqual({
      grantType: "workload_identity",
      clientId: "w",
      assertionFile: "/var/run/secrets/token",
    });
  });

  it("says what each grant is missing", () => {
    expect(problems({ grantType: "enterprise_managed", clientId: "c" })).toEqual([
      `mcpServers.remote.oauth.grantType is "enterprise_managed", which needs "idp" (the enterprise identity provider that vouches for the person)`,
    ]);
    expect(problems({ grantType: "workload_identity", assertionFile: "t" })).toEqual([
      `mcpServers.remote.oauth.grantType is "workload_identity", which needs a pre-registered "clientId"`,
    ]);
    expect(problems({ grantType: "enterprise_managed", clientId: "c", idp: { clientId: "i" } })).toEqual([
      `mcpServers.remote.oauth.idp needs "tokenEndpoint" or "issuer" (where the token endpoint is discovered); ` +
        `mcpServers.remote.oauth.idp.idTokenFile is needed: a file holding the person's ID token from the identity provider`,
    ]);
  });

  it("refuses keys of another grant", () => {
    expect(problems({ clientId: "c", assertionFile: "t" })).toEqual([`mcpServers.remote.oauth.assertionFile is for "grantType": "workload_identity"`]);
  });
});
