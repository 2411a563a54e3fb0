/**
 * The token requests of the grants that need no person: `client_credentials` (machine to
 * machine), `workload_identity` (the workload's own JWT as an RFC 7523 jwt-bearer assertion,
 * SEP-1933) and `enterprise_managed` (SEP-990: the person's ID token exchanged at their
 * enterprise IdP, RFC 8693, for an identity assertion grant (ID-JAG) that is then the
 * jwt-bearer assertion). The exchange is the SDK's; the SDK sends what this makes, with the
 * client authentication the authorization server advertises.
 */
import { readFile } from "node:fs/promises";
import { discoverAndRequestJwtAuthGrant, type FetchLike, requestJwtAuthorizationGrant } from "@modelcontextprotocol/client";
import type { EnterpriseIdpConfig, OAuthConfig } from "../../config/types.js";

export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Whether signing in to the server needs a person (a browser and a redirect). */
export function needsPerson(config: OAuthConfig | undefined): boolean {
  return (config?.grantType ?? "authorization_code") === "authorization_code";
}

/** The grant type a client registered for `config` uses at the token endpoint. */
export function grantTypeOf(config: OAuthConfig | undefined): string {
  const grant = config?.grantType ?? "authorization_code";
  return grant === "workload_identity" || grant === "enterprise_managed" ? JWT_BEARER_GRANT : grant;
}

/** What discovery found about the server, which the enterprise IdP is asked for. */
export interface GrantTarget {
  /** The authorization server's issuer: the ID-JAG's audience. */
  authorizationServer: string | undefined;
  /** The server's resource identifier (RFC 9728). */
  resource: string | undefined;
  fetch?: FetchLike;
}

/** The token request of a grant without a person; undefined for `authorization_code`. */
export async function tokenRequest(config: OAuthConfig | undefined, scope: string | undefined, target: GrantTarget): Promise<URLSearchParams | undefined> {
  if (!config || needsPerson(config)) return undefined;
  const asked = scope ?? config.scopes?.join(" ");
  const params = new URLSearchParams({ grant_type: grantTypeOf(config) });
  if (config.grantType === "workload_identity" && config.assertionFile) params.set("assertion", await secretFile(config.assertionFile, "the workload's JWT"));
  if (config.grantType === "enterprise_managed" && config.idp) params.set("assertion", await identityAssertion(config.idp, asked, target));
  if (asked) params.set("scope", asked);
  return params;
}

/** The ID-JAG for this server from the enterprise IdP, for the person whose ID token is in the file. */
async function identityAssertion(idp: EnterpriseIdpConfig, scope: string | undefined, target: GrantTarget): Promise<string> {
  const { authorizationServer, resource } = target;
  if (!authorizationServer || !resource)
    throw new Error("the server's authorization server and resource were not discovered; the enterprise IdP cannot be asked");
  const request = {
    audience: authorizationServer,
    resource,
    idToken: await secretFile(idp.idTokenFile, "the ID token"),
    clientId: idp.clientId,
    ...(idp.clientSecret ? { clientSecret: idp.clientSecret } : {}),
    ...(scope ? { scope } : {}),
    ...(target.fetch ? { fetchFn: target.fetch } : {}),
  };
  const grant = idp.tokenEndpoint
    ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
    : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer ?? "" });
  return grant.jwtAuthGrant;
}

/** A token kept in a file (re-read every time: such tokens are renewed in place). */
async function secretFile(file: string, what: string): Promise<string> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${what} from ${file} (${error.code ?? error.message})`);
  });
  const token = text.trim();
  if (!token) throw new Error(`${file}, which should hold ${what}, is empty`);
  return token;
}
