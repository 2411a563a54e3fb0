/**
 * Bad input from a host, over stdio and over HTTP: each kind gets its JSON-RPC error (or HTTP
 * status), mcpx keeps serving that host, and other hosts notice nothing.
 * `limits.maxMessageBytes` is set small so that an oversized message is cheap to make.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { EventStream, post, postStreaming, RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const LIMIT = 2048;
const oversized = JSON.stringify({ jsonrpc: "2.0", id: "big", method: "ping", params: { padding: "x".repeat(LIMIT) } });

interface Case {
  name: string;
  /** Sent as is when a string, as JSON otherwise. */
  send: unknown;
  code: number;
  /** The id the error answer carries; absent when mcpx could not read one. */
  id?: string | number;
  /** HTTP status of the answer. */
  status: number;
}

const CASES: Case[] = [
  { name: "malformed JSON", send: '{"jsonrpc":"2.0","id":1,"method":', code: -32700, status: 400 },
  { name: "a JSON value that is not an object", send: "42", code: -32600, status: 400 },
  { name: "an object that is not JSON-RPC", send: { foo: 1 }, code: -32600, status: 400 },
  { name: "the wrong jsonrpc version", send: { jsonrpc: "1.0", id: "v1", method: "ping" }, code: -32600, id: "v1", status: 400 },
  { name: "params that are not an object", send: { jsonrpc: "2.0", id: "p1", method: "ping", params: [1, 2] }, code: -32600, id: "p1", status: 400 },
  { name: "a null id", send: { jsonrpc: "2.0", id: null, method: "ping" }, code: -32600, status: 400 },
  { name: "an empty method", send: { jsonrpc: "2.0", id: "m1", method: "" }, code: -32600, id: "m1", status: 400 },
  { name: "an unknown method", send: { jsonrpc: "2.0", id: "u1", method: "tools/frobnicate" }, code: -32601, id: "u1", status: 200 },
  { name: "tools/call without a name", send: { jsonrpc: "2.0", id: "b1", method: "tools/call", params: {} }, code: -32602, id: "b1", status: 200 },
  {
    name: "tools/call of an unknown tool",
    send: { jsonrpc: "2.0", id: "b2", method: "tools/call", params: { name: "nope__nothing" } },
    code: -32602,
    id: "b2",
    status: 200,
  },
  {
    name: "a log level that does not exist",
    send: { jsonrpc: "2.0", id: "b3", method: "logging/setLevel", params: { level: "loud" } },
    code: -32602,
    id: "b3",
    status: 200,
  },
  {
    name: "prompts/get with a numeric name",
    send: { jsonrpc: "2.0", id: "b4", method: "prompts/get", params: { name: 7 } },
    code: -32602,
    id: "b4",
    status: 200,
  },
  {
    name: "completion/complete without a ref",
    send: { jsonrpc: "2.0", id: "b5", method: "completion/complete", params: {} },
    code: -32602,
    id: "b5",
    status: 200,
  },
];

let config: TempConfig;

beforeAll(() => {
  config = writeConfig({ mcpServers: { gate: nodeServer("gate-server.mjs") }, limits: { maxMessageBytes: LIMIT } });
});

// ---------------------------------------------------------------------------------------------

/** The first frame mcpx sent after the first `from` frames that matches. */
function nextFrame(host: RawStdioHost, from: number, predicate: (frame: Frame) => boolean): Promise<Frame> {
  return host.waitFor((frame) => host.frames.indexOf(frame) >= from && predicate(frame));
}

const isAnswer = (frame: Frame): boolean => !("method" in frame);

describe("bad input over stdio", () => {
  let host: RawStdioHost;
  let pings = 0;

  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize("2025-11-25");
  });
  afterAll(async () => host?.close());

  /** mcpx still answers this host. */
  async function stillServing(): Promise<void> {
    const id = `alive-${++pings}`;
    expect((await host.request(id, "ping")).result).toEqual({});
  }

  it.each(CASES)("$name: error $code, and mcpx keeps serving", async ({ send, code, id }) => {
    const from = host.frames.length;
    host.send(send);
    const answer = await nextFrame(host, from, isAnswer);
    expect((answer.error as { code: number }).code).toBe(code);
    if (id === undefined) expect("id" in answer).toBe(false);
    else expect(answer.id).toBe(id);
    expectValidToClient("2025-11-25", answer);
    await stillServing();
  });

  it("a message over limits.maxMessageBytes: an error, and the next message is read normally", async () => {
    const from = host.frames.length;
    host.send(oversized);
    const answer = await nextFrame(host, from, isAnswer);
    expect((answer.error as { code: number; message: string }).message).toMatch(/exceeds the 2048-byte limit/);
    expectValidToClient("2025-11-25", answer);
    await stillServing();
  });

  it("ignores blank lines, unknown notifications and answers to nothing", async () => {
    const from = host.frames.length;
    host.send("   ");
    host.send({ jsonrpc: "2.0", method: "notifications/whatever", params: { x: 1 } });
    host.send({ jsonrpc: "2.0", id: "never-asked", result: {} });
    await stillServing();
    expect(host.frames.slice(from).filter((frame) => frame.error !== undefined)).toEqual([]);
  });

  it("after all that, still relays a tool call", async () => {
    const call = await host.request("last", "tools/call", { name: "gate__open", arguments: {} });
    expect(JSON.stringify(call.result)).toContain("opened");
    expect(host.running.child.exitCode).toBeNull();
  });
});

describe("the initialize handshake over stdio", () => {
  let host: RawStdioHost;
  afterAll(async () => host?.close());

  it("answers ping before initialize, refuses other requests and a bad or second initialize", async () => {
    host = new RawStdioHost(config);
    expect((await host.request(1, "ping")).result).toEqual({});
    const early = await host.request(2, "tools/list");
    expect((early.error as { message: string }).message).toMatch(/initialize/);
    expect(early.result).toBeUndefined();
    const unversioned = await host.request(3, "initialize", { capabilities: {}, clientInfo: { name: "x", version: "1" } });
    expect((unversioned.error as { code: number }).code).toBe(-32602);

    // None of that spoiled the handshake.
    const init = await host.initialize("2025-06-18");
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-06-18");
    const again = await host.request(4, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "again", version: "1" } });
    expect(again.error).toBeDefined();
    expectValidToClient("2025-06-18", again);

    // The first handshake stands: the session keeps its revision and works.
    const list = await host.request(5, "tools/list");
    expect(list.error).toBeUndefined();
    expectValidToClient("2025-06-18", list, "tools/list");
  });
});

describe("JSON-RPC batches over stdio", () => {
  const hosts: RawStdioHost[] = [];
  afterAll(async () => Promise.all(hosts.map((host) => host.close())));

  it("a 2025-03-26 host's batch is answered as one array, invalid members answered in place", async () => {
    const host = new RawStdioHost(config);
    hosts.push(host);
    await host.initialize("2025-03-26");
    host.send([
      { jsonrpc: "2.0", id: "b-1", method: "ping" },
      { jsonrpc: "2.0", id: "b-2", method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/whatever" },
      { foo: 1 },
    ]);
    const reply = (await host.waitFor((frame) => Array.isArray(frame))) as unknown as Array<Record<string, unknown>>;
    expect(reply.map((answer) => answer.id ?? null).sort()).toEqual([null, "b-1", "b-2"].sort());
    expect(reply.find((answer) => answer.id === undefined)?.error).toMatchObject({ code: -32600 });
    // The 2025-03-26 schema has no shape for an error whose request id is unknown (its
    // JSONRPCError requires an id), so only the answers to readable requests are checked.
    expectValidToClient("2025-03-26", reply.find((answer) => answer.id === "b-1")!, "ping");
    expectValidToClient("2025-03-26", reply.find((answer) => answer.id === "b-2")!, "tools/list");
  });

  it("a batch where the revision has none (2025-11-25) is refused with -32600, and the host is still served", async () => {
    const host = new RawStdioHost(config);
    hosts.push(host);
    await host.initialize("2025-11-25");
    host.send([{ jsonrpc: "2.0", id: "x-1", method: "ping" }]);
    const refusal = await host.waitFor((frame) => !Array.isArray(frame) && "error" in frame && frame.id === undefined);
    expect((refusal.error as { code: number; message: string }).message).toMatch(/batches are not part/);
    expect((await host.request("after", "ping")).result).toEqual({});
  });
});

// ---------------------------------------------------------------------------------------------

describe("bad input over HTTP", () => {
  let mcpx: RunningMcpx & { url: URL };
  let host: RawHttpHost;
  let pings = 0;

  beforeAll(async () => {
    mcpx = await startMcpxHttp(config);
    host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
  });
  afterAll(async () => {
    host?.close();
    await mcpx?.close();
  });

  async function stillServing(on: RawHttpHost = host): Promise<void> {
    const answer = await on.request(`alive-${++pings}`, "ping");
    expect(answer.reply.status).toBe(200);
    expect(answer.result).toEqual({});
  }

  it.each(CASES)("$name: HTTP $status with error $code, and the session keeps working", async ({ send, code, id, status }) => {
    const reply = await host.send(send);
    expect(reply.status).toBe(status);
    const answer = reply.messages[0]!;
    expect((answer.error as { code: number }).code).toBe(code);
    if (id === undefined) expect("id" in answer).toBe(false);
    else expect(answer.id).toBe(id);
    expectValidToClient("2025-11-25", answer);
    await stillServing();
  });

  it("a body over limits.maxMessageBytes: 413, and the next request works", async () => {
    const reply = await host.send(oversized);
    expect(reply.status).toBe(413);
    expectValidToClient("2025-11-25", reply.messages[0]);
    await stillServing();
  });

  it("a request before initialize (no session yet): 400", async () => {
    const reply = await post(mcpx.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(reply.status).toBe(400);
    expectValidToClient("2025-11-25", reply.messages[0]);
  });

  it("a second initialize in a session: an error, and the session keeps its revision", async () => {
    const again = await host.request("again", "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "again", version: "1" } });
    expect(again.error).toBeDefined();
    await stillServing();
  });

  it("a JSON-RPC batch where the revision has none (2025-11-25): 400", async () => {
    const reply = await host.send([
      { jsonrpc: "2.0", id: "batch-1", method: "ping" },
      { jsonrpc: "2.0", id: "batch-2", method: "ping" },
    ]);
    expect(reply.status).toBe(400);
    await stillServing();
  });

  it("a batch from a 2025-03-26 host, whose revision has batches: every request answered", async () => {
    const old = new RawHttpHost(mcpx.url);
    await old.initialize("2025-03-26");
    const reply = await old.send([
      { jsonrpc: "2.0", id: "batch-1", method: "ping" },
      { jsonrpc: "2.0", id: "batch-2", method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/whatever" },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.messages.map((message) => message.id).sort()).toEqual(["batch-1", "batch-2"]);
    for (const { frame, requestMethod } of old.received) expectValidToClient("2025-03-26", frame, requestMethod);
  });

  it("one host's garbage leaves another session's call in flight, its GET stream open, and its answers coming", async () => {
    const [noisy, quiet] = [new RawHttpHost(mcpx.url), new RawHttpHost(mcpx.url)];
    await noisy.initialize("2025-11-25");
    await quiet.initialize("2025-06-18");
    const stream = (await quiet.openStream()) as EventStream;
    expect(stream).toBeInstanceOf(EventStream);
    const { stream: call } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: "waiting", method: "tools/call", params: { name: "gate__wait", arguments: {}, _meta: { progressToken: "q" } } },
      quiet.headers(),
    );
    await call.waitFor((frame) => frame.method === "notifications/progress");

    for (const { send } of CASES) await noisy.send(send);
    expect((await noisy.send(oversized)).status).toBe(413);
    expect((await noisy.send("[]")).status).toBe(400);
    expect((await noisy.send({ jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": "forged" })).status).toBe(404);
    expect((await noisy.send({ jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-protocol-version": "1999-01-01" })).status).toBe(400);
    // The noisy host ends its own session; only its own.
    expect((await noisy.delete()).status).toBe(200);

    expect(stream.closed).toBe(false);
    expect(call.closed).toBe(false);
    expect((await quiet.request("q-ping", "ping")).result).toEqual({});
    expect((await quiet.request("q-open", "tools/call", { name: "gate__open", arguments: {} })).error).toBeUndefined();
    const waited = await call.waitFor((frame) => frame.id === "waiting");
    expect(JSON.stringify(waited.result)).toContain("gate opened");
    expect(call.messages.every((frame) => !("error" in frame))).toBe(true);
    expect(mcpx.child.exitCode).toBeNull();
    quiet.close();
  });
});
