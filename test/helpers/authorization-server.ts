/**
 * A real authorization server for tests: `oidc-provider` (a certified OpenID provider) on
 * 127.0.0.1, port 0, as an MCP server's authorization server would be, and as the issuer of
 * the hosts' identities when mcpx is the protected resource:
 * RFC 7591 dynamic registration (mcpx registers itself), authorization code with PKCE, refresh
 * tokens (when `offline_access` is asked, as mcpx does where offered), client credentials for
 * registered confidential clients, RFC 8707 resource indicators giving JWT access tokens (RS256)
 * whose audience is the resource, and RFC 7009 revocation.
 *
 * - `authorize`: plays the person at an authorization URL without a browser: follows the
 *   provider's redirects with a cookie jar, logs in (`login_hint`, else `loginAs`) and consents
 *   to what was asked, and returns where the provider sent the browser back (the client's
 *   redirect_uri, with `code` and `state`); `signIn` also follows that last redirect.
 * - `clientCredentialsToken`: a token for a confidential client (its `sub` is the client id,
 *   so two clients are two identities).
 * - `sign`: a JWT under the provider's own key with any claims (expired, another audience…).
 *
 * oidc-provider ships no types; the little used here is typed in oidc-provider-module.d.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider";

export interface AuthorizationServerOptions {
  /** Scopes a resource server may be granted (default ["mcp"]). */
  resourceScopes?: string[];
  /** Access tokens last this long (default 3600 s). */
  accessTokenTtlSeconds?: number;
  /** Who logs in at the provider without `login_hint` (default "alice"); `signIn` may name another. */
  loginAs?: string;
  /** Clients registered beforehand (RFC 7591 metadata), e.g. confidential ones for client credentials. */
  clients?: ClientMetadata[];
}

/** A request the provider served: its method, path with query, and Authorization header. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface RunningAuthorizationServer {
  /** `http://127.0.0.1:<port>`, also the issuer. */
  issuer: string;
  /** The `kid` of the provider's signing key. */
  kid: string;
  /** Every request served, in order (to see what a client asked for and sent). */
  requests: SeenRequest[];
  /**
   * The person at `url` (an authorization URL): logs in as `login` (default `loginAs`),
   * consents, and follows the redirect back to the client. Returns the URL it came back to and
   * the client's answer there.
   */
  signIn(url: string | URL, options?: { login?: string }): Promise<{ callback: URL; status: number; body: string }>;
  /** The redirect back to the client (with code and state), without following it. */
  authorize(url: string | URL, options?: { login?: string }): Promise<URL>;
  /** Revoke a token at the provider's revocation endpoint as its client would (RFC 7009). */
  revoke(token: string, clientId: string): Promise<void>;
  /** An access token for a registered confidential client, by the client credentials grant. */
  clientCredentialsToken(options: { clientId: string; clientSecret: string; resource: string; scope?: string }): Promise<string>;
  /** A JWT signed with the provider's key (RS256, its kid) carrying exactly `claims`. */
  sign(claims: Record<string, unknown>, header?: { typ?: string }): Promise<string>;
  close(): Promise<void>;
}

const INTERACTION = "/interaction/";
const KID = "test-key";

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<RunningAuthorizationServer> {
  const requests: SeenRequest[] = [];
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.writeHead(503).end();
  const server: Server = createServer((request, response) => {
    requests.push({ method: request.method ?? "GET", url: request.url ?? "/", authorization: request.headers.authorization });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: KID, alg: "RS256", use: "sig" };
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const scopes = options.resourceScopes ?? ["mcp"];
  const loginAs = options.loginAs ?? "alice";

  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: [signingKey] },
    scopes: ["openid", "offline_access", ...scopes],
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION}${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, IdToken: 3600, RefreshToken: 86_400 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf: string | undefined) => oneOf,
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
  };
  const provider = new Provider(issuer, configuration);
  provider.on("server_error", (_ctx: unknown, error: unknown) => console.error("oidc-provider:", error));
  const callback = provider.callback();
  handle = (request, response) => {
    if (request.url?.startsWith(INTERACTION)) {
      interact(provider, request, response, loginAs).catch((error: unknown) => response.writeHead(500).end(String(error)));
      return;
    }
    callback(request, response);
  };

  const authorize = (url: string | URL, given?: { login?: string }): Promise<URL> => followAsPerson(new URL(url), issuer, given?.login);
  return {
    issuer,
    kid: KID,
    requests,
    authorize,
    async signIn(url, given) {
      const callbackUrl = await authorize(url, given);
      const reply = await fetch(callbackUrl, { signal: AbortSignal.timeout(10_000) });
      return { callback: callbackUrl, status: reply.status, body: await reply.text() };
    },
    async revoke(token, clientId) {
      const reply = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, client_id: clientId }),
      });
      if (!reply.ok) throw new Error(`revocation answered ${reply.status}: ${await reply.text()}`);
    },
    async clientCredentialsToken({ clientId, clientSecret, resource, scope }) {
      const reply = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope: scope ?? scopes.join(" ") }),
      });
      const json = (await reply.json()) as { access_token?: string };
      if (!reply.ok || typeof json.access_token !== "string") throw new Error(`the token endpoint said ${reply.status}: ${JSON.stringify(json)}`);
      return json.access_token;
    },
    sign: (claims, header = {}) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: KID, ...header }).sign(privateKey),
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
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, granted] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, granted.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** Follow redirects from `start` with a cookie jar until they leave the provider; that URL (the redirect_uri with code and state). */
async function followAsPerson(start: URL, issuer: string, login: string | undefined): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  if (login !== undefined) url.searchParams.set("login_hint", login);
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== new URL(issuer).origin) return url;
    const reply = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
      signal: AbortSignal.timeout(10_000),
    });
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
