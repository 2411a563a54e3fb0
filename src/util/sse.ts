/**
 * Server-sent events: reading a stream of them (mcpx as an HTTP client) and
 * writing them (mcpx as an HTTP server).
 */
import { EDGE_BYTES, LineReader } from "../rpc/line-reader.js";
import type { OversizedText } from "../rpc/oversized.js";

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

export interface SseReadOptions {
  /** An event whose data is over this many bytes is dropped (and reported); so is a longer line. */
  maxEventBytes?: number;
  /** An event over `maxEventBytes`: once when it crosses the bound, again when it ends. */
  onOversized?: (event: OversizedText) => void;
  /** Awaited before each read, so that the stream is not read while the other side is full. */
  gate?: () => Promise<void>;
}

interface Assembling {
  dataLines: string[];
  dataBytes: number;
  event?: string;
  id?: string;
  retry?: number;
  /** Over the bound: only the data's two ends are kept. */
  over?: { head: string; tail: string };
}

/** Read events from a byte stream until it ends or `signal` aborts. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, options: SseReadOptions = {}): AsyncGenerator<SseEvent> {
  const max = options.maxEventBytes ?? Number.POSITIVE_INFINITY;
  const ready: SseEvent[] = [];
  let event: Assembling = { dataLines: [], dataBytes: 0 };
  let crossedAt = 0;
  const report = (ended: boolean): void => {
    if (event.over) options.onOversized?.({ bytes: event.dataBytes, head: event.over.head, tail: ended ? event.over.tail : "", ended });
  };
  const addData = (value: string, bytes: number, head = value, tail = value): void => {
    event.dataBytes += bytes + (event.dataBytes > 0 ? 1 : 0);
    if (event.over) {
      event.over.tail = tail.slice(-EDGE_BYTES);
      return;
    }
    if (event.dataBytes <= max) {
      event.dataLines.push(value);
      return;
    }
    event.over = { head: [...event.dataLines, head].join("\n").slice(0, EDGE_BYTES), tail: tail.slice(-EDGE_BYTES) };
    event.dataLines = [];
    report(false);
  };
  const lines = new LineReader(
    max,
    {
      line: (line) => {
        if (line === "") {
          if (event.over) report(true);
          else if (event.dataLines.length > 0 || event.id !== undefined || event.retry !== undefined) {
            ready.push({
              data: event.dataLines.join("\n"),
              ...(event.event !== undefined ? { event: event.event } : {}),
              ...(event.id !== undefined ? { id: event.id } : {}),
              ...(event.retry !== undefined ? { retry: event.retry } : {}),
            });
          }
          event = { dataLines: [], dataBytes: 0 };
          return;
        }
        if (line.startsWith(":")) return;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") addData(value, Buffer.byteLength(value));
        else if (field === "event") event.event = value;
        else if (field === "id") event.id = value;
        else if (field === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
      },
      // A line over the bound: only a data line can carry a message; any other is dropped.
      oversized: (line) => {
        if (!/^data: ?/.test(line.head)) return;
        const head = line.head.replace(/^data: ?/, "");
        if (!line.ended) {
          crossedAt = line.bytes;
          addData("", line.bytes, head, "");
        } else if (event.over) {
          event.dataBytes += line.bytes - crossedAt;
          event.over.tail = line.tail.slice(-EDGE_BYTES);
        }
      },
    },
    { lineEnds: "any" },
  );
  const reader = body.getReader();
  const abort = (): void => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", abort, { once: true });
  try {
    for (;;) {
      if (options.gate) await options.gate();
      const { value, done } = await reader.read();
      if (done) break;
      lines.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      yield* ready.splice(0);
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}

/**
 * The event a resumable stream opens with (SEP-1699): an id, the reconnection delay a client
 * should wait after losing the connection, and empty data.
 */
export function primingSse(id: string, retryMs: number): string {
  return `id: ${id}\nretry: ${retryMs}\ndata:\n\n`;
}

/** One event in wire form. */
export function formatSse(data: string, fields: { event?: string; id?: string } = {}): string {
  let out = "";
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  for (const line of data.split("\n")) out += `data: ${line}\n`;
  return `${out}\n`;
}
