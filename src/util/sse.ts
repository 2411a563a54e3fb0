/**
 * Server-sent events: reading a stream of them (mcpx as an HTTP client) and
 * writing them (mcpx as an HTTP server).
 */

export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

/** Read events from a byte stream until it ends or `signal` aborts. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const abort = (): void => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", abort, { once: true });
  let buffer = "";
  let event: Partial<SseEvent> & { dataLines: string[] } = { dataLines: [] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (event.dataLines.length > 0 || event.id !== undefined || event.retry !== undefined) {
            yield {
              data: event.dataLines.join("\n"),
              ...(event.event !== undefined ? { event: event.event } : {}),
              ...(event.id !== undefined ? { id: event.id } : {}),
              ...(event.retry !== undefined ? { retry: event.retry } : {}),
            };
          }
          event = { dataLines: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") event.dataLines.push(value);
        else if (field === "event") event.event = value;
        else if (field === "id") event.id = value;
        else if (field === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
      }
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}

/** One event in wire form. */
export function formatSse(data: string, fields: { event?: string; id?: string } = {}): string {
  let out = "";
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  for (const line of data.split("\n")) out += `data: ${line}\n`;
  return out + "\n";
}
