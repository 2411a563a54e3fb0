/**
 * A sign-in made now, outside any call (`mcpx auth login SERVER`): the same authorizer a
 * connection uses, started by the server's own challenge (an unauthenticated request, whose
 * `401` names its metadata and scope) or, for a server that answers it without one, by
 * discovery from its URL. With `fresh`, tokens already held are dropped first, so a person can
 * sign in again (as another account, or for new scopes); the client registration is kept.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../../config/types.js";
import type { Logger } from "../../util/log.js";
import { UpstreamAuthorizer } from "./authorizer.js";
import type { OAuthContext } from "./context.js";
import { LOCAL_IDENTITY, type AskSignIn } from "./types.js";

export interface SignInNow {
  server: ServerConfig;
  oauth: OAuthContext;
  ask: AskSignIn;
  log: Logger;
  fresh: boolean;
  identity?: string;
  fetch?: FetchLike;
}

export async function signInNow(options: SignInNow): Promise<void> {
  const { server, oauth } = options;
  if (server.kind !== "http" || !server.url) throw new Error(`"${server.name}" is not an HTTP server: only HTTP servers sign in`);
  if (server.oauth === false) throw new Error(`"${server.name}" has "oauth": false in the config: mcpx never signs in to it`);
  const authorizer = new UpstreamAuthorizer({
    server: server.name,
    identity: options.identity ?? LOCAL_IDENTITY,
    serverUrl: new URL(server.url),
    config: server.oauth,
    store: oauth.store,
    callbacks: oauth.callbacks,
    pending: oauth.pending,
    waitMs: oauth.waitMs,
    log: options.log,
    ask: options.ask,
    done: () => {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.fresh) authorizer.provider.invalidateCredentials("tokens");
  await authorizer.unauthorized(await challenge(server.url, server.headers, options.fetch ?? fetch), undefined);
}

/** The server's answer to a request without a token: its 401 when it refuses one, else a bare 401 (discovery from the URL). */
async function challenge(url: string, headers: Record<string, string>, fetchFn: FetchLike): Promise<Response> {
  const response = await fetchFn(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "mcpx-auth-login", method: "ping" }),
    signal: AbortSignal.timeout(15_000),
  }).catch((error: unknown) => {
    throw new Error(`"${url}" could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  });
  await response.body?.cancel().catch(() => {});
  return response.status === 401 ? response : new Response(null, { status: 401 });
}
