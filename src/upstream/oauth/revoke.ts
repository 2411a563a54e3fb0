/**
 * Signing out of a server: its tokens revoked at the authorization server that issued them
 * (RFC 7009), where that server's metadata offers a `revocation_endpoint`, the refresh token
 * first (revoking it ends the grant at most servers) and then the access token. Sent only to the
 * endpoint of the issuer recorded with the tokens, never elsewhere. Errors name no token.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { StoredCredentials } from "./types.js";

/** `accessTokenLives`: the server could revoke the refresh token but not the access token, valid until it expires. */
export type Revocation =
  | { outcome: "revoked"; accessTokenLives?: boolean }
  | { outcome: "not-offered" }
  | { outcome: "nothing-to-revoke" }
  | { outcome: "failed"; why: string };

export async function revokeTokens(stored: StoredCredentials, fetchFn: FetchLike = fetch): Promise<Revocation> {
  const tokens = stored.tokens ?? {};
  const held = (["refresh_token", "access_token"] as const).filter((kind) => typeof tokens[kind] === "string");
  if (held.length === 0) return { outcome: "nothing-to-revoke" };
  const metadata = (stored.discovery?.authorizationServerMetadata ?? {}) as {
    revocation_endpoint?: unknown;
    revocation_endpoint_auth_methods_supported?: unknown;
  };
  const endpoint = typeof metadata.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
  if (!endpoint) return { outcome: "not-offered" };
  const client = (stored.clientInformation ?? {}) as { client_id?: unknown; client_secret?: unknown };
  const clientId = typeof client.client_id === "string" ? client.client_id : undefined;
  const secret = typeof client.client_secret === "string" ? client.client_secret : undefined;
  const methods = Array.isArray(metadata.revocation_endpoint_auth_methods_supported) ? metadata.revocation_endpoint_auth_methods_supported : [];
  let accessTokenLives = false;
  for (const kind of held) {
    const body = new URLSearchParams({ token: tokens[kind] as string, token_type_hint: kind });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (clientId && secret && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")) {
      body.set("client_id", clientId);
      body.set("client_secret", secret);
    } else if (clientId && secret) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    } else if (clientId) {
      body.set("client_id", clientId);
    }
    try {
      const response = await fetchFn(endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) });
      // RFC 7009 §2.2: 200 whether or not the token was still valid. A server that cannot revoke
      // this kind of token (a self-contained JWT access token) says unsupported_token_type: the
      // refresh token's revocation is what ends the grant then.
      const error = response.ok ? undefined : await errorCode(response);
      if (error === "unsupported_token_type" && kind === "access_token") {
        accessTokenLives = true;
        continue;
      }
      if (!response.ok)
        return {
          outcome: "failed",
          why: `the revocation endpoint answered HTTP ${response.status}${error ? ` ${error}` : ""} for the ${kind.replace("_", " ")}`,
        };
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      return { outcome: "failed", why: `the revocation endpoint could not be reached (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  return accessTokenLives ? { outcome: "revoked", accessTokenLives } : { outcome: "revoked" };
}

/** The OAuth error code of a refusal (only a safe token of it: the body is the server's). */
async function errorCode(response: Response): Promise<string | undefined> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  return typeof body.error === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(body.error) ? body.error : undefined;
}
