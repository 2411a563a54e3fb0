/**
 * The OAuth client mcpx is toward an HTTP upstream that requires sign-in (issue 16), in the
 * terms the rest of mcpx uses: whose credentials (a server and an identity), where they are kept,
 * how a person is asked to sign in, and where the authorization server's redirect comes back.
 * The protocol itself (discovery, registration, PKCE, token requests, DPoP, issuer checks) is the
 * official SDK's (`@modelcontextprotocol/client`), driven by provider.ts and authorizer.ts.
 */
import type { RequestId } from "../../protocol/jsonrpc.js";

/** Whose credentials: one server, one identity ("local" for the person running mcpx). */
export interface CredentialKey {
  server: string;
  identity: string;
}

/** The identity of the person running mcpx, and of every host when identities are off (broker/identity.ts). */
export { LOCAL_IDENTITY } from "../../broker/identity.js";

/**
 * What is kept for one key, as the SDK shapes it (client information, tokens, discovery).
 * `definition` is the server's URL: credentials for another URL under the same name are not used.
 */
export interface StoredCredentials {
  definition: string;
  clientInformation?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  /** When the tokens were saved (ms), for their `expires_in`. */
  tokensSavedAt?: number;
  discovery?: Record<string, unknown>;
  /** The redirect the client information was registered with (a new one needs a new registration). */
  redirectUrl?: string;
  /** The DPoP key the tokens are bound to (dpop.ts StoredDpopKey), when the authorization server uses DPoP. */
  dpopKey?: Record<string, unknown>;
}

/** A row of `mcpx auth list`: never a token. */
export interface CredentialSummary extends CredentialKey {
  definition: string;
  issuer?: string;
  scopes?: string;
  /** When the access token expires (ms), if it said. */
  expiresAt?: number;
  hasRefreshToken: boolean;
  updatedAt: number;
}

/** Where credentials are kept (credential-store.ts: a 0600 SQLite file in the state dir). */
export interface CredentialStore {
  read(key: CredentialKey): StoredCredentials | undefined;
  write(key: CredentialKey, credentials: StoredCredentials): void;
  remove(key: CredentialKey): boolean;
  list(): CredentialSummary[];
}

/** What the authorization server's redirect brought back (the query of the callback). */
export type CallbackParams = URLSearchParams;

/** Where redirects come back: mcpx's own `/oauth/callback` (HTTP) or a loopback listener. */
export interface CallbackEndpoint {
  /** The redirect URL to register and send (a loopback listener starts listening here). */
  url(server: string): Promise<string>;
}

/** A sign-in for a person: the authorization URL, for which server and scopes, and the request that needed it. */
export interface SignInPrompt {
  server: string;
  identity: string;
  url: URL;
  scopes: string | undefined;
  /** The id of mcpx's request to the server that was refused (attributes the question to its call). */
  related: RequestId | undefined;
  /** An id for this sign-in, used as the URL question's `elicitationId`. */
  id: string;
  /** Aborted when the sign-in is no longer wanted (the callback came, or the request ended). */
  signal: AbortSignal;
}

/** The person's answer to the question (accept is consent to open the URL; the callback finishes it). */
export type SignInConsent = "accept" | "decline" | "cancel";

/**
 * How a sign-in reaches a person: as a URL question through the broker (the gateway's), or
 * printed by `mcpx auth login`. Resolves with the answer; the callback may arrive before it.
 */
export type AskSignIn = (prompt: SignInPrompt) => Promise<SignInConsent>;

/** The sign-in finished (tokens saved) or failed (`error`: why): the question about it is complete. */
export type SignInDone = (prompt: SignInPrompt, outcome: "signed-in" | "failed", error?: unknown) => void;
