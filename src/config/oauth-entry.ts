/** A server's `oauth` entry: how mcpx signs in to it (config/types.ts OAuthConfig). */
import path from "node:path";
import type { Checker } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { OAuthConfig } from "./types.js";

const OAUTH_KEYS = ["clientId", "clientSecret", "scopes", "grantType", "privateKeyFile", "signingAlgorithm", "clientMetadataUrl", "callbackPort"];
const GRANTS: readonly OAuthConfig["grantType"][] = ["authorization_code", "client_credentials"];

/** `false` turns sign-in off; an object configures it. */
export function readOAuth(check: Checker, value: unknown, at: KeyPath, baseDir: string): OAuthConfig | false | undefined {
  if (value === false) return false;
  const f = check.fields(value, at, OAUTH_KEYS);
  if (!f) return undefined;
  const scopes = f.read("scopes", (v, p) => {
    if (typeof v === "string") return v.split(/\s+/).filter(Boolean);
    if (Array.isArray(v) && v.every((s) => typeof s === "string" && s !== "" && !/\s/.test(s))) return v as string[];
    return check.fail(p, "must be an array of scope names (or one string of them separated by spaces)");
  });
  const metadataUrl = f.read("clientMetadataUrl", (v, p) => {
    const url = typeof v === "string" && URL.canParse(v) ? new URL(v) : undefined;
    if (url?.protocol !== "https:" || url.pathname === "/") return check.fail(p, "must be an https URL with a path (a Client ID Metadata Document)");
    return url.href;
  });
  const keyFile = f.string("privateKeyFile");
  const oauth: OAuthConfig = {
    grantType: f.oneOf("grantType", GRANTS) ?? "authorization_code",
    ...optional("clientId", f.string("clientId")),
    ...optional("clientSecret", f.string("clientSecret")),
    ...optional("scopes", scopes),
    ...optional("privateKeyFile", keyFile === undefined ? undefined : path.resolve(baseDir, keyFile)),
    ...optional("signingAlgorithm", f.string("signingAlgorithm")),
    ...optional("clientMetadataUrl", metadataUrl),
    ...optional("callbackPort", f.number("callbackPort", { min: 1, max: 65535, integer: true })),
  };
  if (oauth.grantType === "client_credentials" && !oauth.clientId) {
    check.fail(f.path("grantType"), 'is "client_credentials", which needs a pre-registered "clientId" (and "clientSecret" or "privateKeyFile")');
  }
  if (oauth.grantType === "client_credentials" && oauth.clientId && !oauth.clientSecret && !oauth.privateKeyFile) {
    check.fail(f.path("grantType"), 'is "client_credentials", which needs "clientSecret" or "privateKeyFile"');
  }
  if (oauth.clientSecret && oauth.privateKeyFile)
    check.fail(f.at, 'has both "clientSecret" and "privateKeyFile"; keep the one the authorization server expects');
  return oauth;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
