/**
 * What an upstream connection does with a message from the server that went over the size
 * limit and was dropped unread: the call it answered fails now rather than at its timeout, a
 * request of the server's is refused, a notification or a message that reads as none of these
 * is only logged; and the limit is counted for `mcpx servers`.
 */
import type { Channel } from "../rpc/channel.js";
import type { Peer } from "../rpc/peer.js";
import type { OversizedMessage } from "../rpc/oversized.js";
import { ErrorCode } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";
import type { Logger } from "../util/log.js";

/** A limit this connection's messages went over, for `mcpx servers`. */
export interface LimitHit {
  /** The setting, e.g. `limits.maxUpstreamMessageBytes`, and its value. */
  limit: string;
  limitBytes: number;
  /** Messages dropped for it, and the largest (at least; one cut off unread counts what was read). */
  dropped: number;
  largestBytes: number;
}

export function handleOversized(server: string, peer: Peer, channel: Channel, message: OversizedMessage, limitsHit: LimitHit[], log: Logger): void {
  recordLimit(limitsHit, message);
  const size = message.ended ? `of ${message.bytes} bytes` : `of more than ${message.limit} bytes`;
  const over = `a message ${size}, over ${message.limitName} (${message.limit} bytes)`;
  const details = { server, limit: message.limitName, limitBytes: message.limit, bytes: message.bytes };
  if (message.kind === "request" && message.id !== undefined) {
    log.warn("refused an oversized request from upstream", { ...details, id: message.id });
    const error = { code: ErrorCode.InvalidRequest, message: `Request too large: ${over}; mcpx dropped it` };
    channel.send({ jsonrpc: "2.0", id: message.id, error }).catch(() => {});
    return;
  }
  // Only a message tied to a request may fail it: by its id, or, for what reads as an answer
  // whose id was not found, the one call in flight if one is. A line that is no JSON-RPC message
  // at all (200 MB of "x") is tied to nothing: the real answer may still follow it.
  const id = message.kind === "notification" ? undefined : (message.id ?? (message.ended && message.kind === "response" ? peer.soleOutstanding : undefined));
  const failed =
    id !== undefined &&
    peer.fail(
      id,
      (method) =>
        new GatewayError(
          "UPSTREAM_PROTOCOL",
          `upstream "${server}" answered ${method} with ${over}; mcpx dropped it (raise ${message.limitName} if answers this large are expected)`,
          details,
        ),
    );
  if (failed) log.warn("an answer from upstream was too large; its call failed", { ...details, id });
  else log.warn("dropped an oversized message from upstream", { ...details, kind: message.kind, ...(id === undefined ? {} : { id }) });
}

function recordLimit(limitsHit: LimitHit[], message: OversizedMessage): void {
  let hit = limitsHit.find((entry) => entry.limit === message.limitName);
  if (!hit) {
    hit = { limit: message.limitName, limitBytes: message.limit, dropped: 0, largestBytes: 0 };
    limitsHit.push(hit);
  }
  hit.dropped++;
  hit.largestBytes = Math.max(hit.largestBytes, message.bytes);
}
