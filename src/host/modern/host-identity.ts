/**
 * Who a 2026-07-28 host is, for its share of what mcpx holds for it (calls waiting for its
 * retry). A session-less host has no session to count by, and mcpx's credential, when one is
 * configured, is shared by every host, so it names none. What is left: the peer it speaks
 * from (on stdio the process, which is one host; over HTTP the remote address), and within
 * one address the client it says it is (`clientInfo.name` in the request's `_meta`), so that
 * two local hosts (an IDE and a desktop app, both on 127.0.0.1) keep separate shares. The name
 * is the host's own word: a host that changes it on every call gets more shares, but each
 * still lapses after `limits.inputRoundSeconds`.
 */
import type { HostSession } from "../session.js";
import type { Envelope } from "./envelope.js";

/** The peer an HTTP POST's conversation came from, by its base session. */
const peers = new WeakMap<HostSession, string>();

/** Record where a session-less POST came from (its remote address). */
export function rememberPeer(base: HostSession, address: string | undefined): void {
  peers.set(base, `http:${address ?? "unknown"}`);
}

/** The host a modern request speaks for. */
export function hostIdentity(base: HostSession, envelope: Envelope): string {
  const peer = peers.get(base) ?? `${base.transport}:${base.id}`;
  const name = envelope.clientInfo?.name;
  return typeof name === "string" ? `${peer} ${JSON.stringify(name)}` : peer;
}
