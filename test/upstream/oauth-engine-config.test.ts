// A server's `oauth` entry (src/config/oauth-entry.ts): the grants without a person and what each
// needs, read from the config a user writes, with a clear error for what is missing or misplaced.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";

const FILE = "conf/mcpx.json";
const DIR = path.resolve("conf");

const load = (oauth: unknown) => configFromObject({ mcpServers: { remote: { url: "https://mcp.example.com/mcp", oauth } } }, FILE, {});
const oauthOf = (oauth: unknown) => load(oauth).servers[0]?.oauth;

/** Every line of the ConfigError the entry gives. */
function problems(oauth: unknown): string[] {
  try {
    load(oauth);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
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
      `${FILE}: mcpServers.remote.oauth.grantType is "enterprise_managed", which needs "idp" (the enterprise identity provider that vouches for the person)`,
    ]);
    expect(problems({ grantType: "workload_identity", assertionFile: "t" })).toEqual([
      `${FILE}: mcpServers.remote.oauth.grantType is "workload_identity", which needs a pre-registered "clientId"`,
    ]);
    expect(problems({ grantType: "enterprise_managed", clientId: "c", idp: { clientId: "i" } })).toEqual([
      `${FILE}: mcpServers.remote.oauth.idp needs "tokenEndpoint" or "issuer" (where the token endpoint is discovered)`,
      `${FILE}: mcpServers.remote.oauth.idp.idTokenFile is needed: a file holding the person's ID token from the identity provider`,
    ]);
  });

  it("refuses keys of another grant", () => {
    expect(problems({ clientId: "c", assertionFile: "t" })).toEqual([`${FILE}: mcpServers.remote.oauth.assertionFile is for "grantType": "workload_identity"`]);
  });
});

describe("an oauth entry in mcpx's own file", () => {
  it("is mcpx's key, not a sign of a host's file: a typo beside it is still an error", () => {
    const raw = { mcpServers: { remote: { url: "https://mcp.example.com/mcp", oauth: { clientId: "c" }, heders: {} } } };
    expect(() => configFromObject(raw, FILE, {})).toThrow(/mcpServers\.remote\.heders is not a known key \(did you mean "headers"\?\)/);
  });
});
