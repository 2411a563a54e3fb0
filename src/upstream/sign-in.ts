/**
 * An upstream's sign-in as a question: the authorization URL of an HTTP server that answered
 * 401 is put to a person exactly as a server's own URL-mode elicitation would be, so it goes
 * where any question of that call goes (inline to a host that takes URL questions, in its era's
 * way; else the page and `mcpx elicit`) and is person-only as every URL question is. When the
 * redirect has come back and the token is saved, the question is completed the way a server
 * completes one (`notifications/elicitation/complete`).
 */
import type { ServerConfig } from "../config/types.js";
import type { JsonObject, JsonRpcRequest } from "../protocol/jsonrpc.js";
import type { IncomingContext } from "../rpc/peer.js";
import type { Logger } from "../util/log.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import type { OAuthContext } from "./oauth/context.js";
import type { SignInConsent, SignInPrompt } from "./oauth/types.js";
import type { Candidates } from "./calls.js";
import type { Arrival } from "../rpc/channel.js";
import type { JsonRpcNotification } from "../protocol/jsonrpc.js";

/** How much longer a sign-in waits than its question, so an unanswered one expires as a question. */
const QUESTION_FIRST_MS = 5_000;

/** What the sign-in needs of its upstream. */
export interface SignInHost {
  question(context: IncomingContext, candidates: Candidates): Promise<JsonObject>;
  notification(notification: JsonRpcNotification, candidates: Candidates): void;
  candidates(arrival: Arrival): Candidates;
  /** A person is about to be asked to sign in (a start attempt in flight then waits for them). */
  asking(prompt: SignInPrompt): void;
  /** The token was saved: a server down for want of it may start now. */
  signedIn(): void;
  /** The sign-in ended without a token (declined, expired, refused): why. */
  signInFailed(why: string): void;
}

/** The reason an upstream gives once the sign-in its start waited for ended without a token. */
export function signInFailed(server: string, why: string): string {
  return `the sign-in to "${server}" did not complete (${why}); mcpx asks again when it next starts, or run mcpx auth login ${server}`;
}

/** The reason an upstream gives while its start waits for a person to sign in. */
export function waitingForSignIn(server: string): string {
  return `waiting for a sign-in to "${server}": answer its sign-in question (mcpx elicit, the page, or the calling host) or run mcpx auth login ${server}`;
}

/**
 * The authorizer of an HTTP server, unless its config turns sign-in off or the process offers
 * none. Its module (the MCP client SDK's OAuth, jose: about 0.4 s of CPU to load) is imported
 * here, when a server may need it, not by every process that serves only stdio servers.
 */
export async function signInFor(
  config: ServerConfig,
  identity: string,
  oauth: OAuthContext | undefined,
  host: SignInHost,
  log: Logger,
): Promise<UpstreamAuthorizer | undefined> {
  if (config.kind !== "http" || config.oauth === false || !oauth || !config.url) return undefined;
  const { UpstreamAuthorizer } = await import("./oauth/authorizer.js");
  /** Why each sign-in that failed did, for its question's closing (the prompt's signal ends it just after). */
  const failures = new Map<string, Error>();
  return new UpstreamAuthorizer({
    server: config.name,
    identity,
    serverUrl: new URL(config.url),
    config: config.oauth,
    store: oauth.store,
    callbacks: oauth.callbacks,
    pending: oauth.pending,
    // The question's own deadline (this server's ttl, else the process's) ends an unanswered sign-in first, as any question's.
    waitMs: (config.elicitation.ttlSeconds === undefined ? oauth.waitMs : config.elicitation.ttlSeconds * 1000) + QUESTION_FIRST_MS,
    log,
    ask: (prompt) => ask(prompt, host, failures),
    done: (prompt, outcome, error) => {
      if (outcome !== "signed-in") {
        const why = error instanceof Error ? error.message : "the sign-in failed";
        failures.set(prompt.id, new Error(why));
        return host.signInFailed(why);
      }
      const arrival: Arrival = prompt.related === undefined ? {} : { relatedRequestId: prompt.related };
      host.notification({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: prompt.id } }, host.candidates(arrival));
      host.signedIn();
    },
  });
}

async function ask(prompt: SignInPrompt, host: SignInHost, failures: Map<string, Error>): Promise<SignInConsent> {
  host.asking(prompt);
  // The question ends with the sign-in, saying why when it failed (not as an unexplained abort).
  const ended = new AbortController();
  const end = (): void => {
    ended.abort(failures.get(prompt.id) ?? prompt.signal.reason);
    failures.delete(prompt.id);
  };
  if (prompt.signal.aborted) end();
  else prompt.signal.addEventListener("abort", end, { once: true });
  const scopes = prompt.scopes ? ` for ${prompt.scopes}` : "";
  const request: JsonRpcRequest = {
    jsonrpc: "2.0",
    id: `mcpx-sign-in-${prompt.id}`,
    method: "elicitation/create",
    params: {
      mode: "url",
      message: `Sign in to "${prompt.server}"${scopes}: mcpx needs your permission to reach this server for you. Open the link to sign in; mcpx continues when the server sends you back.`,
      url: prompt.url.href,
      elicitationId: prompt.id,
    },
  };
  const arrival: Arrival = prompt.related === undefined ? {} : { relatedRequestId: prompt.related };
  const result = await host.question({ request, signal: ended.signal, arrival }, host.candidates(arrival));
  const action = result.action;
  // Refused: whatever waits for this sign-in (a start, the calls behind it) need not wait for it to expire.
  if (action !== "accept") host.signInFailed(action === "decline" ? "declined" : "cancelled");
  return action === "accept" || action === "decline" ? action : "cancel";
}
