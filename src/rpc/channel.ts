/**
 * A channel moves JSON-RPC messages between mcpx and one peer (a host or an upstream).
 * It knows framing and transport, nothing about MCP methods.
 */
import type { JsonRpcMessage, RequestId } from "../protocol/jsonrpc.js";

/** Where an outgoing message should travel, for transports with more than one stream. */
export interface Route {
  /** The peer's request this message belongs to (HTTP: that request's response stream). */
  relatedRequestId?: RequestId;
}

/** What a transport knows about where an incoming message came from. */
export interface Arrival {
  /** Our own request on whose response stream the message arrived (HTTP only). */
  relatedRequestId?: RequestId;
}

export interface Channel {
  start(): Promise<void>;
  send(message: JsonRpcMessage, route?: Route): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  /** A frame that could not be read; the channel keeps going. */
  onjunk?: (why: string, reply?: JsonRpcMessage) => void;
  onclose?: (reason?: Error) => void;
  /**
   * The answer to one of our requests can no longer arrive (HTTP: its stream closed and could
   * not be resumed). The peer fails the request with `reason` instead of waiting for its timeout.
   */
  onlost?: (id: RequestId, reason: Error) => void;
  /**
   * The peer will send no answer to this incoming request (it was cancelled). A transport
   * that holds something open until the answer (an HTTP POST) can let go of it now.
   */
  unanswered?(id: RequestId): void;
}
