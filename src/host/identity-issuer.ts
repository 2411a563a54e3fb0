/**
 * mcpx as an OAuth protected resource (RFC 9728, the MCP authorization spec): hosts present an
 * access token from the configured issuer (`http.auth.issuer`), a JWT checked here with `jose`
 * against the issuer's published keys: its signature (asymmetric algorithms only), issuer,
 * audience (mcpx's own `/mcp` URL unless `http.auth.audience` says otherwise), expiry and
 * not-before, and the configured scopes. The identity is the issuer and the token's subject.
 *
 * The keys' address is `http.auth.jwksUri`, else the issuer's metadata: RFC 8414 first, then
 * OpenID discovery, whose `issuer` must be the configured one exactly.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { identityFor } from "../broker/identity.js";
import type { HttpAuth } from "../config/types.js";
import type { Logger } from "../util/log.js";

/** Signatures only a key holder can make: an `HS256` token would be checked with a shared secret mcpx has not got. */
const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
/** How far the issuer's clock may be from ours. */
const CLOCK_TOLERANCE_SECONDS = 30;
const FETCH_TIMEOUT_MS = 10_000;
/** An issuer's metadata is a small document. */
const MAX_METADATA_BYTES = 256 * 1024;
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

export type Verdict =
  | { identity: string; scopes: string[] }
  | { refused: "invalid_token" | "insufficient_scope"; why: string }
  /** The issuer's keys could not be had: nobody can be checked now (503, not the token's fault). */
  | { unavailable: string };

export type IdentityOptions = Required<Pick<HttpAuth, "issuer">> & Pick<HttpAuth, "audience" | "jwksUri" | "scopes">;

export class IdentityIssuer {
  #keys: Promise<JWTVerifyGetKey> | undefined;
  #resource: string | undefined;

  constructor(
    readonly options: IdentityOptions,
    private readonly log: Logger,
  ) {
    this.#resource = options.audience;
  }

  get issuer(): string {
    return this.options.issuer;
  }

  /** The resource tokens must be for: `http.auth.audience`, else the `/mcp` URL mcpx listens on (set once it does). */
  get resource(): string {
    if (this.#resource === undefined) throw new Error("the resource is known once mcpx listens");
    return this.#resource;
  }

  /** mcpx listens at `mcpUrl`: the default audience. */
  listening(mcpUrl: URL): void {
    this.#resource ??= mcpUrl.href;
  }

  /** Where the protected-resource metadata of `resource` is (RFC 9728 §3.1: the path inserted after the well-known one). */
  get metadataUrl(): string {
    const url = new URL(this.resource);
    const path = url.pathname === "/" ? "" : url.pathname;
    return `${url.origin}${PROTECTED_RESOURCE_PATH}${path}`;
  }

  /** The RFC 9728 document. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      ...(this.options.scopes?.length ? { scopes_supported: this.options.scopes } : {}),
      bearer_methods_supported: ["header"],
      resource_name: "mcpx",
    };
  }

  /** The `WWW-Authenticate` value of a refusal (RFC 6750 §3, RFC 9728 §5.1). */
  challenge(refusal?: { error: string; why: string }): string {
    const parts = [`resource_metadata="${this.metadataUrl}"`];
    if (this.options.scopes?.length) parts.push(`scope="${this.options.scopes.join(" ")}"`);
    if (refusal) parts.push(`error="${refusal.error}"`, `error_description="${quotable(refusal.why)}"`);
    return `Bearer ${parts.join(", ")}`;
  }

  async verify(token: string): Promise<Verdict> {
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.#keysOnce();
    } catch (error) {
      this.#keys = undefined; // the next request tries again
      const why = `cannot get the keys of the issuer ${this.issuer}: ${(error as Error).message}`;
      this.log.warn("identities: the issuer's keys are out of reach", { issuer: this.issuer, error: (error as Error).message });
      return { unavailable: why };
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        audience: this.resource,
        algorithms: ASYMMETRIC,
        requiredClaims: ["sub", "exp"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || (error instanceof TypeError && !(error instanceof errors.JOSEError))) {
        return { unavailable: `cannot get the keys of the issuer ${this.issuer}: ${(error as Error).message}` };
      }
      return { refused: "invalid_token", why: wordsFor(error) };
    }
    const scopes = scopesOf(payload);
    const missing = (this.options.scopes ?? []).filter((scope) => !scopes.includes(scope));
    if (missing.length) return { refused: "insufficient_scope", why: `the token lacks the scope ${missing.join(" ")}` };
    return { identity: identityFor(this.issuer, payload.sub!), scopes };
  }

  #keysOnce(): Promise<JWTVerifyGetKey> {
    this.#keys ??= (async () =>
      createRemoteJWKSet(new URL(this.options.jwksUri ?? (await discoverJwksUri(this.issuer))), { timeoutDuration: FETCH_TIMEOUT_MS }))();
    return this.#keys;
  }
}

/** The issuer's `jwks_uri`, from its metadata at the first of the well-known places that has it. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const problems: string[] = [];
  for (const where of metadataUrls(issuer)) {
    try {
      const response = await fetch(where, { headers: { accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) {
        problems.push(`${where}: ${response.status}`);
        continue;
      }
      const text = await response.text();
      if (text.length > MAX_METADATA_BYTES) throw new Error(`${where} is larger than ${MAX_METADATA_BYTES} bytes`);
      const metadata = JSON.parse(text) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 §3.3: metadata naming another issuer is not this issuer's.
      if (metadata.issuer !== issuer) throw new Error(`${where} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
      if (typeof metadata.jwks_uri !== "string" || !URL.canParse(metadata.jwks_uri)) throw new Error(`${where} has no jwks_uri`);
      const keys = new URL(metadata.jwks_uri);
      if (keys.protocol !== "https:" && !isLoopback(keys.hostname)) throw new Error(`${where} gives a jwks_uri that is not https`);
      return keys.href;
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
  }
  throw new Error(`no authorization server metadata with keys (${problems.join("; ")})`);
}

/** RFC 8414 §3.1 (the well-known path inserted before the issuer's path), then OpenID discovery (appended, and inserted). */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  const urls = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
  if (path !== "") urls.push(`${url.origin}/.well-known/openid-configuration${path}`);
  return urls;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** `scope` (RFC 9068, space-separated) or `scp` (a list, as some issuers write it). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** Why a token was refused, in words for the host (never the token itself). */
function wordsFor(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's ${error.claim} claim is not accepted (${error.reason})`;
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token is not signed with an asymmetric algorithm the issuer's keys verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "the token is not signed with a key of the issuer";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "the token is not a JWT";
  return "the token cannot be verified";
}

/** A quoted-string's content: no quotes or backslashes, printable ASCII only. */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'");
}
