/**
 * Shared set-up for the relay tests: mcpx in front of the asking fixture (over stdio and over
 * Streamable HTTP), SDK 1.x hosts that record every raw frame mcpx sends them, and small
 * readers for what the fixture's tools return.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ClientCapabilities, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, stdioServeParams, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export type Frame = Record<string, unknown>;

/**
 * A config with these upstreams. A question nobody can take waits in the broker until it
 * expires as `cancel`: a short TTL keeps those tests fast (every host here answers within
 * milliseconds).
 */
export function relayConfig(servers: Record<string, object>): TempConfig {
  return writeConfig({ mcpServers: servers, elicitation: { ttlSeconds: 5 } });
}

/** The fixture over stdio: one process per mcpx, shared by every host of that mcpx. */
export function askingStdio(extra: object = {}): object {
  return nodeServer("asking-server.mjs", ["--stdio"], extra);
}

/** The fixture over Streamable HTTP; requests it sends travel on the stream of the call that caused them. */
export function startAskingHttp(): Promise<HttpFixture> {
  return startHttpFixture("asking-server.mjs", {}, ["--http"]);
}

/** The JSON a fixture tool returned as its only text block. */
export function toolJson(result: unknown): unknown {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  const first = content?.[0];
  if (first?.type !== "text" || first.text === undefined) throw new Error(`not a text result: ${JSON.stringify(result)}`);
  return JSON.parse(first.text) as unknown;
}

/** A raw JSON-RPC frame's `result`, read as a tool result's JSON. */
export function frameToolJson(frame: Frame): unknown {
  if (!("result" in frame)) throw new Error(`the call failed: ${JSON.stringify(frame)}`);
  return toolJson(frame.result);
}

export function isRequestFrame(frame: Frame, method?: string): boolean {
  return "method" in frame && "id" in frame && (method === undefined || frame.method === method);
}

/** An SDK 1.x host plus every raw message mcpx sent it, in order. */
export interface RecordingHost {
  client: Client;
  frames: Frame[];
  /** Server→host requests received so far (optionally of one method). */
  requests(method?: string): Frame[];
  /** Wait for a frame matching `predicate` (bounded). */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

/** Tap a transport so every incoming message is recorded before the SDK parses it. */
function recording(client: Client, transport: Transport): RecordingHost {
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  const sdkHandler = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    frames.push(structuredClone(message) as Frame);
    for (const waiter of [...waiters]) waiter();
    (sdkHandler as ((message: JSONRPCMessage, extra?: unknown) => void) | undefined)?.(message, extra);
  };
  const waitFor = (predicate: (frame: Frame) => boolean, timeoutMs = 15_000): Promise<Frame> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching frame; frames: ${JSON.stringify(frames).slice(0, 2000)}`));
      }, timeoutMs);
      const check = (): void => {
        const found = frames.find(predicate);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  return {
    client,
    frames,
    requests: (method) => frames.filter((frame) => isRequestFrame(frame, method)),
    waitFor,
    close: () => client.close(),
  };
}

export interface HostOptions {
  capabilities?: ClientCapabilities;
  /** Register request handlers before connecting (the SDK checks them against the capabilities). */
  setup?: (client: Client) => void;
  name?: string;
}

function newClient(options: HostOptions): Client {
  const client = new Client({ name: options.name ?? "relay-test-host", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  options.setup?.(client);
  return client;
}

/** An SDK 1.x host that launches `mcpx serve` over stdio; `log()` is what mcpx wrote to stderr. */
export async function stdioHost(config: TempConfig, options: HostOptions = {}): Promise<RecordingHost & { log(): string }> {
  const client = newClient(options);
  const transport = new StdioClientTransport({ ...stdioServeParams(config), stderr: "pipe" });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  await client.connect(transport);
  return { ...recording(client, transport), log: () => log };
}

/** An SDK 1.x host on `mcpx serve --http`. */
export async function httpHost(url: URL, options: HostOptions = {}): Promise<RecordingHost & { transport: StreamableHTTPClientTransport }> {
  const client = newClient(options);
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { ...recording(client, transport), transport };
}

/** A promise with its resolver outside, for handlers that must wait for the test. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** An HTTP host that answers every form with its own label, so a misrouted answer shows. */
export function labelledHost(url: URL, label: string): ReturnType<typeof httpHost> {
  return httpHost(url, {
    name: `host-${label}`,
    capabilities: { elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: `answered by ${label}` } })),
  });
}
