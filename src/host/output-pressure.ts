/**
 * A host that stops reading: what mcpx does with what keeps coming for it.
 *
 * Log messages and progress are for information only (a receiver may ignore them), so beyond a
 * backlog they are dropped and counted. Everything else (answers, requests to the host, list
 * changes) is kept, and the transport bounds it its own way: on stdio the upstreams are not read
 * until the host drains; on HTTP a stream whose host has stopped reading it is ended.
 */
import type { JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { Logger } from "../util/log.js";

/** Bytes waiting to be written to a host beyond which it counts as not keeping up. */
export const BACKLOG_BYTES = 1024 * 1024;

/** What a host may go without when it cannot keep up. */
export function droppable(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
  return (
    !Array.isArray(message) &&
    "method" in message &&
    !("id" in message) &&
    (message.method === "notifications/message" || message.method === "notifications/progress")
  );
}

/** The writable side of a host's stream, as far as backpressure goes. */
export interface Backlogged {
  readonly writableLength: number;
  readonly writableNeedDrain: boolean;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

/** The stream has more waiting to be written than a host that keeps up leaves. */
export function backedUp(stream: Backlogged): boolean {
  return stream.writableLength > BACKLOG_BYTES;
}

/** Counts what was dropped for one stream; one log line per burst, with the count, when it drains or closes. */
export class DropCounter {
  #dropped = 0;

  constructor(
    private readonly log: Logger,
    private readonly stream: string,
  ) {}

  drop(on: Backlogged): void {
    if (this.#dropped++ > 0) return;
    const flush = (): void => {
      on.off("drain", flush);
      on.off("close", flush);
      this.log.warn("the host was not reading: log and progress notifications were dropped", { stream: this.stream, dropped: this.#dropped });
      this.#dropped = 0;
    };
    on.once("drain", flush);
    on.once("close", flush);
  }
}

/** An HTTP stream this far behind, with still more for it that cannot be dropped, has a host that stopped reading it. */
export const STALLED_BYTES = 8 * BACKLOG_BYTES;

/**
 * Whether `message` is written to an SSE stream of an HTTP host: a droppable one not while the
 * stream is backed up; any other request or notification not once the stream has stalled, which
 * is then ended (the host can open another). Answers always are: each request has one, so they
 * cannot pile up.
 */
export function admitToStream(stream: Backlogged & { destroy(): void }, message: JsonRpcMessage, drops: DropCounter, log: Logger): boolean {
  if (!backedUp(stream)) return true;
  if (droppable(message)) {
    drops.drop(stream);
    return false;
  }
  if ("method" in message && stream.writableLength > STALLED_BYTES) {
    log.warn("the host stopped reading a stream; it was ended", { backlogBytes: stream.writableLength, method: message.method });
    stream.destroy();
    return false;
  }
  return true;
}
