/**
 * Two channels joined in memory, for unit tests of the peer and what builds on it: what one
 * side sends the other receives (on a later microtask, as over a pipe), and every frame is
 * recorded. Closing either side closes both.
 */
import type { JsonRpcMessage } from "../../src/protocol/jsonrpc.js";
import type { Arrival, Channel, Route } from "../../src/rpc/channel.js";

export class MemoryChannel implements Channel {
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onclose?: (reason?: Error) => void;
  /** Every message this side sent, with its route. */
  readonly sent: Array<{ message: JsonRpcMessage; route?: Route }> = [];
  other: MemoryChannel | undefined;
  #closed = false;

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage, route?: Route): Promise<void> {
    if (this.#closed) throw new Error("the channel is closed");
    this.sent.push({ message: structuredClone(message), ...(route ? { route } : {}) });
    const other = this.other;
    queueMicrotask(() => other?.onmessage?.(structuredClone(message), {}));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
    await this.other?.close();
  }
}

export function channelPair(): [MemoryChannel, MemoryChannel] {
  const a = new MemoryChannel();
  const b = new MemoryChannel();
  a.other = b;
  b.other = a;
  return [a, b];
}
