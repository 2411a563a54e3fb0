/**
 * The errors a host sees from a call to an upstream, worded for it: why the server cannot take
 * the call now and when to try again, and what went wrong with one in flight, the server named.
 */
import { GatewayError, RpcError } from "../protocol/errors.js";
import { MODERN_ERROR } from "../protocol/modern.js";

/** The retry hint given while a start attempt is under way. */
const START_UNDER_WAY_RETRY_MS = 1_000;

export interface Availability {
  server: string;
  state: string;
  /** Down but being restarted with its last catalogue: hosts are told "restarting". */
  restarting: boolean;
  reason: string | undefined;
  /** When the next start attempt is due (epoch ms), if one is scheduled. */
  retryAt: number | undefined;
}

/**
 * Why a call cannot go to this server now, and when to try again: `retryAfterMs` is the time
 * until the next start attempt (about a second while a start is under way), absent when no
 * restart is coming (stopped, disabled).
 */
export function unavailableError(availability: Availability): GatewayError {
  const { server, reason } = availability;
  const retryAfterMs = retryAfter(availability);
  const why = reason ? `: ${reason}` : "";
  const back = retryAfterMs === undefined ? "" : `; mcpx is restarting it, try again in about ${Math.max(1, Math.round(retryAfterMs / 1000))} s`;
  const state = availability.restarting ? "restarting" : availability.state;
  return new GatewayError("UPSTREAM_UNAVAILABLE", `upstream "${server}" is ${state}${why}${back}`, {
    server,
    state,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function retryAfter({ state, retryAt }: Availability): number | undefined {
  if (state === "starting") return START_UNDER_WAY_RETRY_MS;
  if (state !== "down" || retryAt === undefined) return undefined;
  return Math.max(0, retryAt - Date.now());
}

/**
 * A call's failure, with the server named once in front of it. A 2026-07-28 server's header
 * mismatch or unsupported version is about mcpx's request, not the host's: passed on as it is,
 * it would tell the host its own request was wrong, so it becomes mcpx's protocol failure.
 */
export function explainCallError(server: string, error: unknown): unknown {
  if (error instanceof RpcError && (error.code === MODERN_ERROR.HeaderMismatch || error.code === MODERN_ERROR.UnsupportedProtocolVersion)) {
    return new GatewayError("UPSTREAM_PROTOCOL", `upstream "${server}" refused mcpx's request (${error.code}: ${error.message})`, {
      server,
      upstreamError: error.toWire(),
    });
  }
  if (error instanceof GatewayError && error.code === "UPSTREAM_EXITED") {
    return new GatewayError("UPSTREAM_EXITED", `upstream "${server}" went away while the request was in flight (${error.message}); mcpx is restarting it`, {
      server,
    });
  }
  if (error instanceof GatewayError && (error.code === "UPSTREAM_TIMEOUT" || error.code === "UPSTREAM_PROTOCOL")) {
    // The details (a limit hit, …) are kept.
    const message = error.message.startsWith(`upstream "${server}"`) ? error.message : `upstream "${server}": ${error.message}`;
    return new GatewayError(error.code, message, { ...error.details, server });
  }
  return error;
}

/**
 * What an HTTP error status from a remote server means, for a reason or an error message:
 * `what` is what answered ("the server answered"). A 401 that reaches here is one mcpx's OAuth
 * sign-in could not answer, so it says how to try again or pass a token instead; when a token
 * is passed in `headers`, to check it.
 */
export function httpRefusal(what: string, status: number, body: string, headers: Record<string, string> = {}): string {
  const said = body ? `: ${body.slice(0, 200)}` : "";
  if (status !== 401) return `${what} HTTP ${status}${said}`;
  const hasToken = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  const help = hasToken
    ? `check the token in this server's "headers" (it was refused)`
    : `mcpx could not sign in to it with OAuth (it named no authorization server, or the sign-in did not give a token it accepts: mcpx auth login SERVER tries again); or give it a token in this server's config, e.g. "headers": {"Authorization": "Bearer \${MY_TOKEN}"}`;
  return `${what} HTTP 401${said}; it wants a sign-in: ${help}`;
}
