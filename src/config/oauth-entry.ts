/** A server's `oauth` entry: how mcpx signs in to it (config/types.ts OAuthConfig). */
import path from "node:path";
import type { Checker, Fields } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { EnterpriseIdpConfig, OAuthConfig, OAuthGrant } from "./types.js";

const OAUTH_KEYS = [
  "clientId",
  "clientSecret",
  "scopes",
  "grantType",
  "privateKeyFile",
  "signingAlgorithm",
  "clientMetadataUrl",
  "callbackPort",
  "assertionFile",
  "idp",
];
const IDP_KEYS = ["tokenEndpoint", "issuer", "clientId", "clientSecret", "idTokenFile"];
const GRANTS: readonly OAuthGrant[] = ["authorization_code", "client_credentials", "enterprise_managed", "workload_identity"];

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
  const file = (key: string): string | undefined => {
    const given = f.string(key);
    return given === undefined ? undefined : path.resolve(baseDir, given);
  };
  const oauth: OAuthConfig = {
    grantType: f.oneOf("grantType", GRANTS) ?? "authorization_code",
    ...optional("clientId", f.string("clientId")),
    ...optional("clientSecret", f.string("clientSecret")),
    ...optional("scopes", scopes),
    ...optional("privateKeyFile", file("privateKeyFile")),
    ...optional("signingAlgorithm", f.string("signingAlgorithm")),
    ...optional("clientMetadataUrl", metadataUrl),
    ...optional("callbackPort", f.number("callbackPort", { min: 1, max: 65535, integer: true })),
    ...optional("assertionFile", file("assertionFile")),
    ...optional(
      "idp",
      f.read("idp", (v, p) => readIdp(check, v, p, baseDir)),
    ),
  };
  checkGrant(check, f, oauth);
  if (oauth.clientSecret && oauth.privateKeyFile)
    check.fail(f.at, 'has both "clientSecret" and "privateKeyFile"; keep the one the authorization server expects');
  return oauth;
}

/** What each grant needs, and keys that belong to another grant. */
function checkGrant(check: Checker, f: Fields, oauth: OAuthConfig): void {
  const grant = oauth.grantType;
  const needs = (what: string): undefined => check.fail(f.path("grantType"), `is "${grant}", which needs ${what}`);
  if (grant !== "authorization_code" && !oauth.clientId) needs('a pre-registered "clientId"');
  if (grant === "client_credentials" && oauth.clientId && !oauth.clientSecret && !oauth.privateKeyFile) needs('"clientSecret" or "privateKeyFile"');
  if (grant === "enterprise_managed" && !f.has("idp")) needs('"idp" (the enterprise identity provider that vouches for the person)');
  if (grant === "workload_identity" && !f.has("assertionFile")) needs('"assertionFile" (a file holding the workload\'s JWT)');
  if (grant !== "enterprise_managed" && f.has("idp")) check.fail(f.path("idp"), 'is for "grantType": "enterprise_managed"');
  if (grant !== "workload_identity" && f.has("assertionFile")) check.fail(f.path("assertionFile"), 'is for "grantType": "workload_identity"');
}

function readIdp(check: Checker, value: unknown, at: KeyPath, baseDir: string): EnterpriseIdpConfig | undefined {
  const f = check.fields(value, at, IDP_KEYS);
  if (!f) return undefined;
  const url = (key: string): string | undefined =>
    f.read(key, (v, p) => (typeof v === "string" && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) ? v : check.fail(p, "must be an http(s) URL")));
  const tokenEndpoint = url("tokenEndpoint");
  const issuer = url("issuer");
  const clientId = f.string("clientId");
  const idTokenFile = f.string("idTokenFile");
  if (!tokenEndpoint && !issuer) check.fail(at, 'needs "tokenEndpoint" or "issuer" (where the token endpoint is discovered)');
  if (!clientId) check.fail(f.path("clientId"), "is needed: mcpx's client id at the identity provider");
  if (!idTokenFile) check.fail(f.path("idTokenFile"), "is needed: a file holding the person's ID token from the identity provider");
  if (!clientId || !idTokenFile || (!tokenEndpoint && !issuer)) return undefined;
  return {
    clientId,
    idTokenFile: path.resolve(baseDir, idTokenFile),
    ...optional("tokenEndpoint", tokenEndpoint),
    ...optional("issuer", issuer),
    ...optional("clientSecret", f.string("clientSecret")),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
