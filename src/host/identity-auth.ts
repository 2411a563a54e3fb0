/**
 * Who is calling `/mcp` (and `/v1`): the identity a request acts as, or why it is refused.
 *
 * - Nothing configured: every request is the operator's ("local"), as a stdio server's would be.
 * - The static host credential (`http.auth.token`/`tokenFile`, `$MCPX_HTTP_TOKEN`): the operator.
 * - An issuer (`http.auth.issuer`): its JWT access tokens, each its issuer and subject
 *   (identity-issuer.ts). Without a token, or with a bad one, 401 with a challenge naming the
 *   protected-resource metadata; a good token without the configured scopes, 403.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { bearerOf, type HostCredential } from "./host-credential.js";
import type { IdentityIssuer } from "./identity-issuer.js";

export interface HostAuth {
  credential?: HostCredential;
  issuer?: IdentityIssuer;
}

export type Authenticated = { identity: string } | Refused;

export interface Refused {
  status: 401 | 403 | 503;
  /** The `WWW-Authenticate` header, for 401 and 403. */
  challenge?: string;
  message: string;
}

export function isRefused(result: Authenticated): result is Refused {
  return "status" in result;
}

/**
 * @param operator the surface's own way to tell the operator: `/v1` takes the API token when no
 *   static credential is configured, and says where it is (`hint`, the 401's words then).
 */
export async function authenticate(
  request: IncomingMessage,
  auth: HostAuth,
  operator?: { matches(token: string): boolean; hint: string },
): Promise<Authenticated> {
  const { credential, issuer } = auth;
  const given = bearerOf(request);
  if (given !== undefined && credential?.matches(given)) return { identity: LOCAL_IDENTITY };
  if (given !== undefined && !credential && operator?.matches(given)) return { identity: LOCAL_IDENTITY };
  if (!issuer) {
    if (!credential && !operator) return { identity: LOCAL_IDENTITY };
    const hint = operator?.hint ?? `send the host credential (from ${credential!.from}) as "Authorization: Bearer <token>"`;
    return {
      status: 401,
      challenge: given === undefined ? 'Bearer realm="mcpx"' : 'Bearer realm="mcpx", error="invalid_token"',
      message: `Unauthorized: ${hint}`,
    };
  }
  if (given === undefined) {
    return { status: 401, challenge: issuer.challenge(), message: `Unauthorized: send an access token of ${issuer.issuer} as "Authorization: Bearer <token>"` };
  }
  const verdict = await issuer.verify(given);
  if ("identity" in verdict) return { identity: verdict.identity };
  if ("unavailable" in verdict) return { status: 503, message: `Service Unavailable: ${verdict.unavailable}` };
  const status = verdict.refused === "insufficient_scope" ? 403 : 401;
  return {
    status,
    challenge: issuer.challenge({ error: verdict.refused, why: verdict.why }),
    message: `${status === 403 ? "Forbidden" : "Unauthorized"}: ${verdict.why}`,
  };
}

/** Serve the protected-resource metadata (RFC 9728) when that is what was asked for. */
export function serveResourceMetadata(url: URL, response: ServerResponse, issuer: IdentityIssuer | undefined): boolean {
  if (!issuer) return false;
  const path = new URL(issuer.metadataUrl).pathname;
  // The document of the resource itself, and at the bare well-known path for clients that look there first.
  if (url.pathname !== path && url.pathname !== "/.well-known/oauth-protected-resource") return false;
  response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300", "x-content-type-options": "nosniff" });
  response.end(JSON.stringify(issuer.metadata()));
  return true;
}
