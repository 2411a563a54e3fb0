/**
 * Design rule 5: whom a message from an upstream belongs to, only as far as mcpx can prove it.
 *
 * - a call: it came on that call's HTTP stream, or that call is the only one in flight, or every
 *   call in flight is of one script run (`CallerContext.run`): the run is the call, whichever of
 *   its calls asked (a host's mcpx__exec, a command's run);
 * - a host: every call in flight is that host's, or the connection itself is the host's (a
 *   per-host connection, or `mcpx serve` on stdio, which serves one host for its whole life);
 * - nobody: people only (no host's agent tools), and the hosts whose calls may be waiting are
 *   told where the question is. Guessing would hand one client's prompt to another.
 */
import type { Candidates } from "../upstream/calls.js";
import type { CallerContext, HostSession } from "./session.js";

export type Attribution =
  | { level: "call"; call: CallerContext; calls: CallerContext[] }
  | { level: "host"; session: HostSession; calls: CallerContext[] }
  | { level: "none"; calls: CallerContext[] };

/**
 * @param candidates the calls the message may belong to (see `Upstream.candidates`).
 * @param connectionOwner the host the whole connection belongs to, if any.
 */
export function attribute(candidates: Candidates, connectionOwner: HostSession | undefined): Attribution {
  const calls = candidates as CallerContext[];
  const [only] = calls;
  if (only && calls.length === 1) return { level: "call", call: only, calls };
  const run = runOf(calls);
  if (run) return { level: "call", call: run, calls };
  if (connectionOwner) return { level: "host", session: connectionOwner, calls };
  const sessions = new Set(calls.map((call) => call.session));
  const [session] = sessions;
  if (calls.length > 1 && sessions.size === 1 && session) return { level: "host", session, calls };
  return { level: "none", calls };
}

/** The script run every one of these calls is of, if they are all of one. */
function runOf(calls: readonly CallerContext[]): CallerContext | undefined {
  const run = calls[0]?.run;
  return run && calls.every((call) => call.run === run) ? run : undefined;
}

/** The one call it belongs to, when proven. */
export function callOf(attribution: Attribution): CallerContext | undefined {
  return attribution.level === "call" ? attribution.call : undefined;
}

/** The host it belongs to, when proven. */
export function hostOf(attribution: Attribution): HostSession | undefined {
  if (attribution.level === "call") return attribution.call.session;
  return attribution.level === "host" ? attribution.session : undefined;
}

/**
 * The host's request a message for it should travel with (HTTP: that request's stream): the
 * call itself, else the host's latest call in flight.
 */
export function routeOf(attribution: Attribution): CallerContext | undefined {
  if (attribution.level === "call") return attribution.call;
  if (attribution.level !== "host") return undefined;
  return attribution.calls.filter((call) => call.session === attribution.session && call.requestId !== undefined).at(-1);
}
