/**
 * The proof one mcpx instance gives another when it hands on a request it cannot serve itself
 * (a legacy session or a held modern call lives in the other's memory): a header with an HMAC
 * under the cluster's shared secret over who sends it, to whom, when, and which request. The
 * receiver trusts such a request's `x-mcpx-peer` (the host's address, for the audit trail) and
 * never hands it on again. A hop older than HOP_TTL_MS is refused, so one seen on the wire
 * cannot be replayed later; inside that window it is good only for the same method and path.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const HOP_HEADER = "x-mcpx-hop";
/** The address the host's request came from, as the first instance saw it. */
export const PEER_HEADER = "x-mcpx-peer";
const HOP_TTL_MS = 30_000;
/** A cluster secret shorter than this is refused by the config. */
export const MIN_SECRET_LENGTH = 32;

export interface HopRequest {
  method: string;
  /** The path and query, as sent. */
  path: string;
}

/** The header value `from` sends `to` for `request`. */
export function signHop(secret: string, from: string, to: string, request: HopRequest, now = Date.now()): string {
  return `v1.${from}.${now}.${mac(secret, from, to, now, request)}`;
}

/** The sending instance, when `value` is a good hop to `self` for this request; else why not. */
export function verifyHop(secret: string, self: string, value: string, request: HopRequest, now = Date.now()): { from: string } | { refused: string } {
  const [version, from, at, given, extra] = value.split(".");
  if (version !== "v1" || !from || !at || !given || extra !== undefined) return { refused: "malformed cluster hop" };
  const sentAt = Number(at);
  if (!Number.isSafeInteger(sentAt) || Math.abs(now - sentAt) > HOP_TTL_MS) return { refused: "cluster hop too old (or the clocks differ by more than 30 s)" };
  const expected = Buffer.from(mac(secret, from, self, sentAt, request));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { refused: "cluster hop failed verification" };
  return { from };
}

function mac(secret: string, from: string, to: string, at: number, request: HopRequest): string {
  const signed = `mcpx cluster hop v1\n${from}\n${to}\n${at}\n${request.method}\n${request.path}`;
  return createHmac("sha256", secret).update(signed).digest("base64url");
}
