/**
 * A real authorization server for tests: `oidc-provider` (a certified OpenID provider) on
 * 127.0.0.1, port 0. It issues JWT access tokens (RS256) for resource indicators (RFC 8707), so
 * the tests of mcpx as a protected resource and of mcpx's own OAuth client for upstreams can
 * both use it.
 *
 * - `clientCredentialsToken`: a token for a confidential client (its `sub` is the client id,
 *   so two clients are two identities).
 * - `completeAuthorization`: plays the person at an authorization URL without a browser:
 *   follows the redirects with a cookie jar, logs in `login_hint` (else `loginAs`) and consents
 *   to whatever was asked, and returns the URL the provider sent the browser back to (the
 *   client's redirect_uri, with `code` and `state`).
 * - `sign`: a JWT under the provider's own key with any claims (expired, another audience…).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider";

export interface OidcProviderOptions {
  /** Registered clients (RFC 7591 metadata). */
  clients?: ClientMetadata[];
  /** Access tokens last this long (default 3600). */
  accessTokenTtlSeconds?: number;
  /** The scopes a resource server grants (default ["mcp"]). */
  resourceScopes?: string[];
  /** Enable RFC 7591 dynamic client registration at /reg. */
  registration?: boolean;
  /** Who logs in at an authorization URL without `login_hint` (default "alice"). */
  loginAs?: string;
  /** Further oidc-provider configuration, merged over the defaults. */
  configuration?: Configuration;
}

export interface RunningOidcProvider {
  /** `http://127.0.0.1:<port>`, also the issuer. */
  issuer: string;
  provider: Provider;
  /** The provider's signing key (public part), as published in its JWKS. */
  publicJwk: JWK;
  clientCredentialsToken(options: { clientId: string; clientSecret: string; resource: string; scope?: string }): Promise<string>;
  completeAuthorization(url: string | URL, options?: { login?: string }): Promise<URL>;
  /** A JWT signed with the provider's key (RS256, its kid) carrying exactly `claims`. */
  sign(claims: Record<string, unknown>, header?: { typ?: string }): Promise<string>;
  /** Requests the provider served, by path (to see what a client fetched). */
  requests: string[];
  close(): Promise<void>;
}

const INTERACTION = "/interaction/";

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<RunningOidcProvider> {
  const requests: string[] = [];
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.writeHead(503).end();
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? "/");
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = "test-key";
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const scopes = options.resourceScopes ?? ["mcp"];
  const loginAs = options.loginAs ?? "alice";

  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: [privateJwk as never] },
    scopes: ["openid", "offline_access", ...scopes],
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION}${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, IdToken: 3600, RefreshToken: 86_400 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: options.registration ?? false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf: string | undefined) => oneOf ?? (undefined as unknown as string),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: scopes.join(" "),
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: ttl,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    ...options.configuration,
  };
  const provider = new Provider(issuer, configuration);
  // oidc-provider warns on stderr for its development defaults; that is expected in tests.
  provider.on("server_error", (_ctx: unknown, error: unknown) => console.error("oidc-provider:", error));
  const callback = provider.callback();
  handle = (request, response) => {
    if (request.url?.startsWith(INTERACTION)) {
      interact(provider, request, response, loginAs).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
      return;
    }
    callback(request, response);
  };

  return {
    issuer,
    provider,
    publicJwk,
    requests,
    async clientCredentialsToken({ clientId, clientSecret, resource, scope }) {
      const body = new URLSearchParams({ grant_type: "client_credentials", resource, scope: scope ?? scopes.join(" ") });
      const reply = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
        },
        body,
      });
      const json = (await reply.json()) as { access_token?: string };
      if (!reply.ok || typeof json.access_token !== "string") throw new Error(`the token endpoint said ${reply.status}: ${JSON.stringify(json)}`);
      return json.access_token;
    },
    completeAuthorization: (url, given) => followAsPerson(new URL(url), issuer, given?.login),
    async sign(claims, header = {}) {
      return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid, ...header }).sign(privateKey);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The person at the provider: logs in (login_hint, else `loginAs`) and consents to what is asked. */
async function interact(provider: Provider, request: IncomingMessage, response: ServerResponse, loginAs: string): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === "login") {
    const hint = details.params.login_hint;
    const accountId = typeof hint === "string" && hint !== "" ? hint : loginAs;
    await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error("the interaction's grant is gone");
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, granted] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, granted.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** Follow redirects from `start` with a cookie jar until they leave the provider; that URL (the redirect_uri with code, state). */
async function followAsPerson(start: URL, issuer: string, login: string | undefined): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  if (login !== undefined) url.searchParams.set("login_hint", login);
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== new URL(issuer).origin) return url;
    const reply = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } });
    for (const line of reply.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = reply.headers.get("location");
    if (reply.status < 300 || reply.status >= 400 || !location) {
      throw new Error(`the provider answered ${reply.status} at ${url.pathname} without a redirect: ${(await reply.text()).slice(0, 500)}`);
    }
    url = new URL(location, url);
  }
  throw new Error("the provider redirected more than 20 times");
}
