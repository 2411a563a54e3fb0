/**
 * The SDK's OAuthClientProvider for one server and one identity: client information and tokens
 * read from and written to the credential store on every use (so a sign-in by another mcpx
 * process counts at once), the PKCE verifier and `state` kept in memory only (they never need to
 * outlive the sign-in that made them), and the authorization URL captured instead of opening a
 * browser: authorizer.ts turns it into a question for a person.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  createPrivateKeyJwtAuth,
  type DpopSession,
  type AddClientAuthentication,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthConfig } from "../../config/types.js";
import { dpopAlgorithm, dpopSession, type StoredDpopKey } from "./dpop.js";
import { grantTypeOf, needsPerson, tokenRequest } from "./grants.js";
import type { CredentialKey, CredentialStore, StoredCredentials } from "./types.js";

const CLIENT_NAME = "mcpx";

export class StoredOAuthProvider implements OAuthClientProvider {
  /** The redirect of the sign-in about to start (set by the authorizer; undefined for client_credentials). */
  redirect: string | undefined;
  /** The authorization URL the SDK would have opened, once it has decided a person must sign in. */
  authorizationUrl: URL | undefined;
  /** The `state` of the sign-in in progress. */
  lastState: string | undefined;
  #codeVerifier: string | undefined;
  #dpop: Promise<DpopSession> | undefined;
  /** The public key of that session, as stored. */
  #dpopKey: string | undefined;
  /** What discovery found (the SDK says before a token request): an enterprise IdP is asked for them. */
  #authorizationServer: string | undefined;
  #resource: string | undefined;
  /** An assertion grant was sent in this attempt: the SDK's retry after a refusal must not send another (SEP-1933). */
  #assertionSent = false;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(
    private readonly key: CredentialKey,
    /** The server's URL: stored credentials for another URL under the same name are not used. */
    private readonly definition: string,
    private readonly config: OAuthConfig | undefined,
    private readonly store: CredentialStore,
  ) {
    if (config?.grantType === "client_credentials" && config.privateKeyFile) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: config.clientId ?? "",
        subject: config.clientId ?? "",
        privateKey: readFileSync(config.privateKeyFile, "utf8"),
        alg: config.signingAlgorithm ?? "RS256",
      });
    }
  }

  get redirectUrl(): string | undefined {
    return this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const machine = !needsPerson(this.config);
    const scope = this.config?.scopes?.join(" ");
    return {
      client_name: CLIENT_NAME,
      redirect_uris: this.redirect ? [this.redirect] : [],
      grant_types: machine ? [grantTypeOf(this.config)] : ["authorization_code", "refresh_token"],
      response_types: machine ? [] : ["code"],
      token_endpoint_auth_method: this.config?.privateKeyFile ? "private_key_jwt" : this.config?.clientSecret ? "client_secret_basic" : "none",
      ...(scope ? { scope } : {}),
      // SEP-837: a loopback redirect is a native application's.
      ...({ application_type: "native" } as Record<string, string>),
    };
  }

  state(): string {
    this.lastState = randomBytes(24).toString("base64url");
    return this.lastState;
  }

  #read(): StoredCredentials | undefined {
    const stored = this.store.read(this.key);
    return stored && stored.definition === this.definition ? stored : undefined;
  }

  #update(change: (credentials: StoredCredentials) => void): void {
    const credentials = this.#read() ?? { definition: this.definition };
    change(credentials);
    this.store.write(this.key, credentials);
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const configured = this.config?.clientId;
    const stored = this.#read();
    if (configured) {
      // The SDK stamps the client with the issuer it was first used with (SEP-2352): kept, so a
      // pre-registered secret is never presented to another authorization server.
      const issuer = stored?.clientInformation?.client_id === configured ? stored.clientInformation.issuer : undefined;
      return {
        client_id: configured,
        ...(this.config?.clientSecret ? { client_secret: this.config.clientSecret } : {}),
        ...(typeof issuer === "string" ? { issuer } : {}),
      };
    }
    // A client registered for another redirect (a loopback port that changed) registers again.
    if (!stored?.clientInformation || (this.redirect && stored.redirectUrl && stored.redirectUrl !== this.redirect)) return undefined;
    return stored.clientInformation as StoredOAuthClientInformation;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.#update((credentials) => {
      credentials.clientInformation = { ...information };
      if (this.redirect) credentials.redirectUrl = this.redirect;
    });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#read()?.tokens as StoredOAuthTokens | undefined;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#update((credentials) => {
      credentials.tokens = { ...tokens };
      credentials.tokensSavedAt = Date.now();
    });
  }

  /** When the access token expires (ms), if the server said. */
  expiresAt(): number | undefined {
    const stored = this.#read();
    const expiresIn = stored?.tokens?.expires_in;
    return typeof expiresIn === "number" && stored?.tokensSavedAt !== undefined ? stored.tokensSavedAt + expiresIn * 1000 : undefined;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.#codeVerifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new Error("no sign-in is in progress (no PKCE verifier)");
    return this.#codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#update((credentials) => {
      credentials.discovery = JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#read()?.discovery as OAuthDiscoveryState | undefined;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier" || scope === "all") this.#codeVerifier = undefined;
    if (scope === "verifier") return;
    this.#update((credentials) => {
      if (scope === "all" || scope === "tokens") {
        delete credentials.tokens;
        delete credentials.tokensSavedAt;
      }
      if (scope === "all" || scope === "client") delete credentials.clientInformation;
      if (scope === "all" || scope === "discovery") delete credentials.discovery;
    });
  }

  /**
   * The server asked for DPoP: its challenge used the `DPoP` scheme (RFC 9449 §7.1), set by the
   * authorizer. Its protected-resource metadata saying so counts too (resourceOffersDpop).
   */
  dpopChallenged = false;

  /**
   * DPoP when both sides take it: the authorization server advertises it
   * (`dpop_signing_alg_values_supported`) and the server asked for it (a `DPoP` challenge, or its
   * RFC 9728 metadata), or a key is kept already (a token bound to it). Many authorization servers
   * advertise DPoP by default in front of servers that take Bearer tokens only: a DPoP-bound
   * token would be refused there. The SDK then signs a proof into every token request, and
   * authorized-fetch.ts presents the token with the DPoP scheme and a fresh proof. One session
   * for the life of this provider.
   */
  dpop(): Promise<DpopSession> | undefined {
    const discovery = this.discoveryState();
    const metadata = discovery?.authorizationServerMetadata as Record<string, unknown> | undefined;
    const alg = dpopAlgorithm(metadata?.dpop_signing_alg_values_supported);
    if (!alg) return undefined;
    // The session follows the stored key: one removed meanwhile (a logout) is not used again.
    const stored = this.#read()?.dpopKey as StoredDpopKey | undefined;
    if (!stored && !this.dpopChallenged && !resourceOffersDpop(discovery?.resourceMetadata as Record<string, unknown> | undefined)) return undefined;
    const mark = stored ? JSON.stringify(stored.publicJwk) : undefined;
    if (this.#dpop && this.#dpopKey === mark) return this.#dpop;
    this.#dpopKey = mark;
    this.#dpop = dpopSession(stored, alg, (key) => {
      this.#dpopKey = JSON.stringify(key.publicJwk);
      this.#update((credentials) => {
        credentials.dpopKey = { ...key };
      });
    }).catch((error: unknown) => {
      this.#dpop = undefined;
      throw error;
    });
    return this.#dpop;
  }

  saveAuthorizationServerUrl(issuer: string): void {
    this.#authorizationServer = issuer;
  }

  saveResourceUrl(resource: string): void {
    this.#resource = resource;
  }

  /** A new attempt to get a token (authorizer.ts): an assertion grant may be sent once in it. */
  newAttempt(): void {
    this.#assertionSent = false;
  }

  /** The grants without a person (grants.ts); undefined: the authorization code of a sign-in. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const params = await tokenRequest(this.config, scope, { authorizationServer: this.#authorizationServer, resource: this.#resource });
    if (params?.has("assertion")) {
      if (this.#assertionSent) throw new Error("the authorization server refused the assertion; it is not sent again");
      this.#assertionSent = true;
    }
    return params;
  }
}

/** The server's RFC 9728 metadata says it takes DPoP-bound tokens. */
function resourceOffersDpop(metadata: Record<string, unknown> | undefined): boolean {
  const algorithms = metadata?.dpop_signing_alg_values_supported;
  return metadata?.dpop_bound_access_tokens_required === true || (Array.isArray(algorithms) && algorithms.length > 0);
}
