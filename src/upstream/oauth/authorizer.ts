/**
 * Signing in to one HTTP server for one identity, as the MCP authorization spec asks of a
 * client: the access token on every request (refreshed shortly before it expires), and on a
 * `401` the SDK's `auth()` (protected-resource and authorization-server discovery, registration,
 * PKCE, the `resource` indicator, refresh) run once for everyone waiting; when a person must sign
 * in, the authorization URL goes to them as a question (`ask`), the redirect's code comes back
 * through PendingSignIns, and the request that was refused is sent again once. A `403
 * insufficient_scope` asks again for the union of the scopes, a bounded number of times.
 */
import { randomUUID } from "node:crypto";
import {
  auth,
  type AuthResult,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  isStrictScopeSuperset,
  type FetchLike,
} from "@modelcontextprotocol/client";
import type { OAuthConfig } from "../../config/types.js";
import { GatewayError } from "../../protocol/errors.js";
import type { RequestId } from "../../protocol/jsonrpc.js";
import type { Logger } from "../../util/log.js";
import type { PendingSignIns } from "./pending-sign-ins.js";
import { needsPerson } from "./grants.js";
import { sameOriginIssuerMismatch } from "./issuer-tolerance.js";
import { StoredOAuthProvider } from "./provider.js";
import type { AskSignIn, CallbackEndpoint, CredentialStore, SignInDone, SignInPrompt } from "./types.js";

/** Refresh this long before the access token says it expires. */
const REFRESH_AHEAD_MS = 60_000;
/** Step-ups for one request before mcpx gives up on `insufficient_scope`. */
export const MAX_STEP_UPS = 2;

/** Per callback registry, the flows between asking for the redirect URL and ending: its listener stays open for them. */
const preparing = new WeakMap<PendingSignIns, number>();

export interface AuthorizerDeps {
  server: string;
  identity: string;
  serverUrl: URL;
  config: OAuthConfig | undefined;
  store: CredentialStore;
  callbacks: CallbackEndpoint;
  pending: PendingSignIns;
  ask: AskSignIn;
  done: SignInDone;
  /** How long a sign-in may wait for its redirect once the person has been asked. */
  waitMs: number;
  log: Logger;
  /** For the discovery and token requests (the global fetch unless a test gives another). */
  fetch?: FetchLike;
}

export class UpstreamAuthorizer {
  readonly provider: StoredOAuthProvider;
  #scope: string | undefined;
  /**
   * Whether the store may hold a token for this server: true at first (another process may have
   * signed in), false once a read found none, true again when the server refuses (then the
   * sign-in, or a token another process saved since, is read).
   */
  #mayHaveTokens = true;
  /** Step-ups asked for since the server last accepted a request (mayStepUp). */
  #stepUpsSinceAccepted = 0;
  #resourceMetadataUrl: URL | undefined;
  /** The flow in progress: every request refused meanwhile waits for it instead of starting another. */
  #flight: Promise<void> | undefined;
  /** The authorization server's metadata names another path of its own origin as issuer (issuer-tolerance.ts). */
  #sameOriginIssuer = false;

  constructor(private readonly deps: AuthorizerDeps) {
    this.provider = new StoredOAuthProvider({ server: deps.server, identity: deps.identity }, deps.serverUrl.href, deps.config, deps.store);
    this.#scope = deps.config?.scopes?.join(" ");
  }

  /**
   * The authorization of one request (none before any sign-in), the token refreshed when about to
   * expire: `Bearer`, or for a DPoP-bound token the `DPoP` scheme with a fresh proof of this
   * method and URL (RFC 9449 §7.1).
   */
  async headers(url: URL, method: string): Promise<Record<string, string>> {
    // Most servers never ask for a sign-in: their requests read no store once it has no token for them.
    if (!this.#mayHaveTokens) return {};
    let tokens = this.provider.tokens();
    if (!tokens) {
      this.#mayHaveTokens = false;
      return {};
    }
    const expiresAt = this.provider.expiresAt();
    if (expiresAt !== undefined && expiresAt - Date.now() < REFRESH_AHEAD_MS && tokens.refresh_token) {
      await this.#once(() => this.#refresh()).catch((error: unknown) => {
        this.deps.log.info("refreshing the access token failed; the server will say whether a sign-in is needed", { error: describe(error) });
      });
      tokens = this.provider.tokens();
      if (!tokens) return {};
    }
    const session = tokens.token_type?.toLowerCase() === "dpop" ? await this.provider.dpop() : undefined;
    if (!session) return { authorization: `Bearer ${tokens.access_token}` };
    const proof = await session.buildProof({ htm: method, htu: url, accessToken: tokens.access_token });
    return { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
  }

  /** A `DPoP-Nonce` the server sent (on any response, RFC 9449 §8.2) goes into the next proof. */
  async observe(response: Response, url: URL): Promise<void> {
    if (!response.headers.has("dpop-nonce")) return;
    (await this.provider.dpop())?.observeNonce(response, url);
  }

  /** The server answered 401: get a new token (refresh, or a sign-in by a person); throws when none can be had. */
  unauthorized(response: Response, related: RequestId | undefined): Promise<void> {
    const looked = this.#mayHaveTokens;
    this.#mayHaveTokens = true;
    // Sent without a token because none was kept, and one is now (another process signed in): use it.
    if (!looked && this.provider.tokens()) return Promise.resolve();
    const challenge = extractWWWAuthenticateParams(response);
    if (/^\s*dpop\b/i.test(response.headers.get("www-authenticate") ?? "")) this.provider.dpopChallenged = true;
    if (challenge.resourceMetadataUrl) this.#resourceMetadataUrl = challenge.resourceMetadataUrl;
    if (!this.deps.config?.scopes && challenge.scope) this.#scope = challenge.scope;
    // A token was refused: the server may have moved to another authorization server (SEP-2352),
    // so its protected-resource metadata is read again; credentials of the old issuer are then
    // dropped by their issuer stamps instead of being presented to the new one.
    const refused = this.provider.tokens() !== undefined;
    return this.#once(() => {
      if (refused) this.provider.invalidateCredentials("discovery");
      return this.#authorize(related, false);
    });
  }

  /** The server answered 403 insufficient_scope: sign in again for the union of the scopes. */
  /**
   * Whether another step-up may be tried: at most MAX_STEP_UPS since the server last accepted a
   * request. Counted here, not only per request: a start that ends for want of a sign-in is tried
   * again once signed in, as a new request, and would otherwise step up without end.
   */
  mayStepUp(): boolean {
    return this.#stepUpsSinceAccepted < MAX_STEP_UPS;
  }

  /** The server accepted a request: step-ups may be tried again when it next asks for more scopes. */
  accepted(): void {
    this.#stepUpsSinceAccepted = 0;
  }

  insufficientScope(response: Response, related: RequestId | undefined): Promise<void> {
    this.#mayHaveTokens = true;
    this.#stepUpsSinceAccepted++;
    const challenge = extractWWWAuthenticateParams(response);
    if (challenge.resourceMetadataUrl) this.#resourceMetadataUrl = challenge.resourceMetadataUrl;
    const granted = this.provider.tokens()?.scope;
    this.#scope = computeScopeUnion(this.#scope, granted, challenge.scope);
    const force = isStrictScopeSuperset(this.#scope, granted);
    return this.#once(() => this.#authorize(related, force));
  }

  #once(flow: () => Promise<void>): Promise<void> {
    this.#flight ??= flow().finally(() => {
      this.#flight = undefined;
    });
    return this.#flight;
  }

  /** The SDK's auth() with this server's options; once more without the issuer echo check when only the path differs. */
  async #auth(extra: { authorizationCode?: string; iss?: string; forceReauthorization?: boolean } = {}): Promise<AuthResult> {
    this.provider.newAttempt();
    try {
      return await auth(this.provider, this.#options(extra));
    } catch (error) {
      if (this.#sameOriginIssuer || !sameOriginIssuerMismatch(error)) throw error;
      this.deps.log.warn("the authorization server's metadata names another path of its origin as issuer; accepted", {
        server: this.deps.server,
        expected: error.expected,
        issuer: error.received,
      });
      this.#sameOriginIssuer = true;
      return auth(this.provider, this.#options(extra));
    }
  }

  #options(extra: { authorizationCode?: string; iss?: string; forceReauthorization?: boolean } = {}) {
    return {
      serverUrl: this.deps.serverUrl,
      ...(this.#sameOriginIssuer ? { skipIssuerMetadataValidation: true } : {}),
      ...(this.#resourceMetadataUrl ? { resourceMetadataUrl: this.#resourceMetadataUrl } : {}),
      ...(this.#scope ? { scope: this.#scope } : {}),
      ...(this.deps.fetch ? { fetchFn: this.deps.fetch } : {}),
      ...extra,
    };
  }

  #refresh(): Promise<void> {
    const refresh = async (): Promise<void> => {
      const result = await this.#auth();
      if (result !== "AUTHORIZED") throw new Error("the refresh needs a sign-in");
    };
    // A refresh sends no redirect: keeping the one the client was registered with keeps that
    // registration (a new loopback port would register anew, and the refresh token is the old client's),
    // and opens no listener.
    const registered = this.deps.store.read({ server: this.deps.server, identity: this.deps.identity })?.redirectUrl;
    if (registered === undefined || !needsPerson(this.deps.config)) return this.#withRedirect(refresh);
    this.provider.redirect = registered;
    return refresh();
  }

  /**
   * Run `flow` with the redirect URL set. Asking for it starts a loopback listener (outside
   * `mcpx serve --http`); a flow that ends without a sign-in waiting (refreshed, refused, or
   * failed before any person was asked) closes it again unless another flow is still getting
   * ready, else it would keep the process alive for nothing.
   */
  async #withRedirect<T>(flow: () => Promise<T>): Promise<T> {
    if (!needsPerson(this.deps.config)) {
      this.provider.redirect = undefined;
      return flow();
    }
    const { pending } = this.deps;
    preparing.set(pending, (preparing.get(pending) ?? 0) + 1);
    try {
      this.provider.redirect = await this.deps.callbacks.url(this.deps.server);
      return await flow();
    } finally {
      const left = (preparing.get(pending) ?? 1) - 1;
      preparing.set(pending, left);
      if (left === 0 && pending.size === 0) pending.onidle?.();
    }
  }

  #authorize(related: RequestId | undefined, forceReauthorization: boolean): Promise<void> {
    return this.#withRedirect(() => this.#signIn(related, forceReauthorization));
  }

  async #signIn(related: RequestId | undefined, forceReauthorization: boolean): Promise<void> {
    const { server } = this.deps;
    this.provider.authorizationUrl = undefined;
    const result = await this.#auth({ forceReauthorization }).catch((error: unknown) => {
      throw new GatewayError("SIGN_IN_REQUIRED", `signing in to "${server}" failed: ${describe(error)}`);
    });
    if (result === "AUTHORIZED") return;
    const url = this.provider.authorizationUrl;
    const state = this.provider.lastState;
    if (!url || !state) throw new GatewayError("SIGN_IN_REQUIRED", `signing in to "${server}" failed: the authorization URL was not made`);
    await this.#personSignsIn(url, state, related);
  }

  /**
   * Ask a person to open `url`, and wait for the redirect. The sign-in lives on after a decline
   * or a cancel until it would have expired (a host that shows the URL and retries later, as
   * with -32042, still finds the token), but the request that needed it fails at once then.
   */
  async #personSignsIn(url: URL, state: string, related: RequestId | undefined): Promise<void> {
    const { server, identity, pending, waitMs } = this.deps;
    const stop = new AbortController();
    const deadline = setTimeout(() => stop.abort(new GatewayError("SIGN_IN_REQUIRED", `nobody signed in to "${server}" in time`)), waitMs);
    deadline.unref();
    const prompt: SignInPrompt = { server, identity, url, scopes: this.#scope, related, id: randomUUID(), signal: stop.signal };
    const signedIn = pending
      .expect(state, server, stop.signal)
      .then((params) => this.#exchange(params))
      .then(
        () => this.deps.done(prompt, "signed-in"),
        (error: unknown) => {
          this.deps.done(prompt, "failed", error);
          throw error;
        },
      )
      .finally(() => {
        clearTimeout(deadline);
        stop.abort();
      });
    const consent = this.deps.ask(prompt).catch(() => "cancel" as const);
    const refused = consent.then((answer) => (answer === "accept" ? new Promise<never>(() => {}) : answer));
    const outcome = await Promise.race([signedIn.then(() => "signed-in" as const), refused]);
    if (outcome !== "signed-in") {
      signedIn.catch(() => {}); // it may still finish; nothing waits for it here
      throw new GatewayError("SIGN_IN_REQUIRED", `the sign-in to "${server}" was ${outcome === "decline" ? "declined" : "cancelled"}`);
    }
  }

  async #exchange(params: URLSearchParams): Promise<void> {
    const { server } = this.deps;
    const error = params.get("error");
    // The error text comes from the redirect, which anyone can forge: only its code is named.
    if (error !== null) throw new GatewayError("SIGN_IN_REQUIRED", `the authorization server refused the sign-in to "${server}" (${safeCode(error)})`);
    const code = params.get("code");
    if (!code) throw new GatewayError("SIGN_IN_REQUIRED", `the sign-in to "${server}" came back without a code`);
    const iss = params.get("iss");
    const result = await this.#auth({ authorizationCode: code, ...(iss !== null ? { iss } : {}) }).catch((failure: unknown) => {
      throw new GatewayError("SIGN_IN_REQUIRED", `signing in to "${server}" failed: ${describe(failure)}`);
    });
    if (result !== "AUTHORIZED") throw new GatewayError("SIGN_IN_REQUIRED", `signing in to "${server}" did not give a token`);
  }
}

function safeCode(text: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(text) ? text : "an unreadable error";
}

/** A failed sign-in in words fit to show (exported for its test). */
export function describe(error: unknown): string {
  // The issuer a redirect names is the attacker's in a mix-up: the SDK says never to show it.
  if (error instanceof IssuerMismatchError && error.kind === "authorization_response") {
    return "the redirect came back naming another authorization server than the one asked (a mix-up attack, or a misconfigured server)";
  }
  return error instanceof Error ? error.message : String(error);
}
