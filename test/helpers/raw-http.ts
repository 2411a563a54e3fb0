/**
 * A raw Streamable HTTP host for tests: plain `fetch` against `mcpx serve --http`, with every
 * JSON-RPC message mcpx sends recorded (POST answers, whether plain JSON or SSE, and the GET
 * stream). Deliberately independent of mcpx's own HTTP and SSE code, so it can judge it.
 */
import { request as httpRequest } from "node:http";

export type Frame = Record<string, unknown>;

export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface HttpReply {
  status: number;
  headers: Headers;
  contentType: string;
  /** The JSON-RPC messages in the body: one for a JSON answer, each event's data for SSE. */
  messages: Frame[];
  body: string;
}

/** The `data` of each event in a complete SSE body; an event with empty data (SEP-1699 priming) carries no message, as SDK clients read it. */
export function sseData(body: string): string[] {
  const data: string[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((line) => line.startsWith("data:"));
    const joined = lines.map((line) => line.slice(5).replace(/^ /, "")).join("\n");
    if (joined !== "") data.push(joined);
  }
  return data;
}

function messagesOf(contentType: string, body: string): Frame[] {
  if (body.trim() === "") return [];
  if (contentType.includes("text/event-stream")) return sseData(body).map((data) => JSON.parse(data) as Frame);
  if (contentType.includes("application/json")) {
    const value = JSON.parse(body) as Frame | Frame[];
    return Array.isArray(value) ? value : [value];
  }
  return [];
}

/** POST a body (an object is sent as JSON, a string as is) and read the whole answer. */
export async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  return { status: response.status, headers: response.headers, contentType, messages: messagesOf(contentType, text), body: text };
}

/**
 * A 2026-07-28 `tools/call` in one POST, with the envelope (`_meta`: the revision and the
 * host's `capabilities`) and the headers that revision asks for, `Mcp-Name` the tool called.
 */
export function postModernToolCall(url: URL, id: number, params: { name: string } & Frame, capabilities: object = {}): Promise<HttpReply> {
  const V = "2026-07-28";
  return post(
    url,
    {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": capabilities }, ...params },
    },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": params.name },
  );
}

/** A request through node:http, which (unlike fetch) lets a test set any Host header. */
export function rawRequest(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, timeout: 15_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("request timed out")));
    req.end(body);
  });
}

/** An open GET stream: the messages that arrived on it so far, and a way to wait for one. */
export class EventStream {
  readonly messages: Frame[] = [];
  #waiters: Array<() => void> = [];
  #closed = false;
  readonly done: Promise<void>;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
    private readonly onMessage?: (frame: Frame) => void,
  ) {
    this.done = this.#read().catch(() => {});
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          for (const data of sseData(`${block}\n\n`)) {
            const frame = JSON.parse(data) as Frame;
            this.messages.push(frame);
            this.onMessage?.(frame);
          }
          this.#wake();
        }
      }
    } finally {
      this.#closed = true;
      this.#wake();
    }
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Wait (bounded) for a message matching `predicate`. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message on the stream; got ${JSON.stringify(this.messages)}`)), timeoutMs);
      const check = (): void => {
        const found = this.messages.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else if (this.#closed) {
          clearTimeout(timer);
          reject(new Error(`the stream ended; got ${JSON.stringify(this.messages)}`));
        } else this.#waiters.push(check);
      };
      check();
    });
  }

  /** Wait (bounded) for the server to end the stream. */
  async ended(timeoutMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("the stream did not end")), timeoutMs)))]).finally(
      () => clearTimeout(timer),
    );
  }

  close(): void {
    this.controller.abort();
  }
}

/**
 * One host session over Streamable HTTP. Records every message mcpx sends it with the method of
 * the request each answer belongs to, so tests can validate them per revision.
 */
export class RawHttpHost {
  sessionId: string | undefined;
  /** The revision mcpx answered initialize with. */
  revision: string | undefined;
  /** Every message mcpx sent this host, with the method of the request an answer is for. */
  readonly received: Array<{ frame: Frame; requestMethod?: string }> = [];
  readonly #methods = new Map<unknown, string>();
  #streams: EventStream[] = [];

  constructor(readonly url: URL) {}

  /** Headers of a request in this session (session id and, once known, the protocol version). */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
      ...(this.revision && this.revision >= "2025-06-18" ? { "mcp-protocol-version": this.revision } : {}),
      ...extra,
    };
  }

  /** POST raw body in this session; records what comes back. */
  async send(body: unknown, extraHeaders: Record<string, string> = {}): Promise<HttpReply> {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (typeof message === "object" && message !== null && "method" in message && "id" in message) {
        this.#methods.set((message as Frame).id, String((message as Frame).method));
      }
    }
    const reply = await post(this.url, body, this.headers(extraHeaders));
    for (const frame of reply.messages) this.#record(frame);
    return reply;
  }

  #record(frame: Frame): void {
    const requestMethod = "method" in frame ? undefined : this.#methods.get(frame.id);
    this.received.push(requestMethod ? { frame, requestMethod } : { frame });
  }

  /** Send one request; resolves with its answer (and, as the non-enumerable `reply`, the HTTP reply it came in). */
  async request(id: number | string, method: string, params?: object): Promise<Frame & { reply: HttpReply }> {
    const reply = await this.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    const answer = reply.messages.find((frame) => frame.id === id && !("method" in frame));
    if (!answer) throw new Error(`no answer to ${method} (HTTP ${reply.status}): ${reply.body}`);
    // Not enumerable: the answer stays a plain JSON-RPC message for validators and JSON.stringify.
    return Object.defineProperty({ ...answer }, "reply", { value: reply, enumerable: false }) as Frame & { reply: HttpReply };
  }

  async notify(method: string, params?: object): Promise<HttpReply> {
    return this.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  }

  /** initialize + notifications/initialized; keeps the session id and negotiated revision. */
  async initialize(protocolVersion = "2025-11-25", capabilities: object = {}): Promise<Frame & { reply: HttpReply }> {
    const answer = await this.request("init", "initialize", {
      protocolVersion,
      capabilities,
      clientInfo: { name: "raw-http-host", version: "1.0.0" },
    });
    this.sessionId = answer.reply.headers.get("mcp-session-id") ?? undefined;
    this.revision = (answer.result as { protocolVersion?: string } | undefined)?.protocolVersion;
    const initialized = await this.notify("notifications/initialized");
    if (initialized.status !== 202) throw new Error(`notifications/initialized got HTTP ${initialized.status}`);
    return answer;
  }

  /** Open the session's GET stream; resolves once mcpx has answered with headers. */
  async openStream(extraHeaders: Record<string, string> = {}): Promise<EventStream | Response> {
    const controller = new AbortController();
    const response = await fetch(this.url, {
      method: "GET",
      headers: { accept: "text/event-stream", ...this.headers(extraHeaders) },
      signal: controller.signal,
    });
    if (response.status !== 200) {
      await response.text();
      return response;
    }
    const stream = new EventStream(response, controller, (frame) => this.#record(frame));
    this.#streams.push(stream);
    return stream;
  }

  async delete(): Promise<Response> {
    const response = await fetch(this.url, { method: "DELETE", headers: this.headers() });
    await response.text();
    return response;
  }

  /** Close any GET streams still open. */
  close(): void {
    for (const stream of this.#streams) stream.close();
  }
}

/**
 * POST a request whose answer is expected as an SSE stream, without waiting for the stream to end:
 * the caller can act on what arrives before the answer. Resolves once mcpx sent its headers.
 */
export async function postStreaming(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ response: Response; stream: EventStream }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    throw new Error(`expected an SSE answer, got HTTP ${response.status} ${response.headers.get("content-type")}: ${await response.text()}`);
  }
  return { response, stream: new EventStream(response, controller) };
}
