/**
 * OpenTelemetry end to end, with real parts: `mcpx serve --http` exports over OTLP/HTTP to a
 * receiver on 127.0.0.1 that decodes with OpenTelemetry's own proto definitions
 * (helpers/otlp-receiver.ts); a host (SDK 1.x) sends its trace context in `_meta`; the
 * upstream (SDK 1.x, fixtures/traced-server.mjs) reads mcpx's from its request's `_meta` and
 * records its own span with the OpenTelemetry SDK. One trace: host → mcpx (SERVER) → mcpx's
 * request upstream (CLIENT) → the upstream's span. The metrics after known calls are read as
 * exported over OTLP.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";

const TOKEN = "operator-0123456789abcdef0123456789";
const HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const HOST_SPAN = "00f067aa0ba902b7";

const MODERN_TRACE = "0af7651916cd43dd8448eb211c80319c";

let receiver: OtlpReceiver;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let client: Client;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  config = writeConfig({
    mcpServers: {
      traced: nodeServer("traced-server.mjs"),
      modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]),
      // Called only by the metrics test, so its counts are that test's alone.
      counted: nodeServer("traced-server.mjs"),
      faulty: nodeServer("faulty-server.mjs"),
      brief: { ...nodeServer("traced-server.mjs"), elicitation: { ttlSeconds: 1 } },
    },
    http: { auth: { token: TOKEN } },
  });
  config.env = {
    ...config.env,
    MODERN_FRAMES: join(config.dir, "modern-frames.jsonl"),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_SERVICE_NAME: "mcpx-under-test",
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_METRIC_EXPORT_INTERVAL: "200",
  };
  mcpx = await startMcpxHttp(config);
  client = new Client({ name: "traced-host", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(mcpx.url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  const every = ["traced__echo_trace", "faulty__crash", "brief__ask", "modern__greet", "counted__fails"];
  await eventually(async () => {
    const names = new Set((await client.listTools()).tools.map((tool) => tool.name));
    return every.every((name) => names.has(name));
  }, "every upstream's tools");
}, 60_000);

afterAll(async () => {
  await client?.close();
  await mcpx?.close();
  await receiver?.close();
});

function textOf(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "") as string;
}

describe("traces", () => {
  it("one trace from the host through mcpx to the upstream: the host's context the parent, mcpx's upstream span's context sent on", async () => {
    const result = await client.callTool({
      name: "traced__echo_trace",
      arguments: {},
      _meta: { traceparent: `00-${HOST_TRACE}-${HOST_SPAN}-01`, tracestate: "vendor=host" },
    });
    const received = JSON.parse(textOf(result)) as { traceparent: string; tracestate: string | null };
    const [, traceId, parentOfUpstream] = received.traceparent.split("-");
    expect(traceId).toBe(HOST_TRACE);
    expect(received.tracestate).toBe("vendor=host");

    const spans = await eventually(() => {
      const inTrace = receiver.spans.filter((span) => span.traceId === HOST_TRACE);
      return inTrace.length >= 3 ? inTrace : undefined;
    }, "three spans of the host's trace");
    const server = only(spans, (span) => span.kind === "SPAN_KIND_SERVER");
    const upstream = only(spans, (span) => span.kind === "SPAN_KIND_CLIENT");
    const inside = only(spans, (span) => span.service === "traced-server");

    expect(server).toMatchObject({ service: "mcpx-under-test", name: "tools/call traced__echo_trace", parentSpanId: HOST_SPAN });
    expect(server.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "traced__echo_trace",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "tcp",
      "mcp.protocol.version": expect.any(String),
      "mcp.session.id": expect.any(String),
      "jsonrpc.request.id": expect.any(String),
    });
    expect(upstream).toMatchObject({ service: "mcpx-under-test", name: "tools/call echo_trace", parentSpanId: server.spanId });
    expect(upstream.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo_trace",
      "mcpx.server": "traced",
      "network.transport": "pipe",
    });
    // What the upstream was sent is mcpx's upstream span, and its own span hangs below it.
    expect(parentOfUpstream).toBe(upstream.spanId);
    expect(inside).toMatchObject({ name: "traced-server echo_trace", parentSpanId: upstream.spanId });
  });

  it("a request without a trace context starts a trace of its own, and an isError result marks both spans tool_error", async () => {
    await client.callTool({ name: "traced__fails", arguments: {} });
    const server = await eventually(
      () => receiver.spans.find((span) => span.name === "tools/call traced__fails" && span.kind === "SPAN_KIND_SERVER"),
      "the span of the failing call",
    );
    expect(server.parentSpanId).toBe("");
    expect(server.traceId).not.toBe(HOST_TRACE);
    expect(server.attributes["error.type"]).toBe("tool_error");
    expect(server.status.code).toBe("STATUS_CODE_ERROR");
    const upstream = await eventually(() => receiver.spans.find((span) => span.parentSpanId === server.spanId), "its upstream span");
    expect(upstream.attributes["error.type"]).toBe("tool_error");
  });

  it("a script's calls (mcpx__exec) are children of the exec request's span", async () => {
    const trace = "5e1f2a3b4c5d6e7f8091a2b3c4d5e6f7";
    const result = await client.callTool({
      name: "mcpx__exec",
      arguments: { code: "const a = await traced.echo_trace(); const b = await traced.echo_trace(); return textOf(a) + textOf(b);" },
      _meta: { traceparent: `00-${trace}-${HOST_SPAN}-01` },
    });
    expect(JSON.stringify(result)).toContain(trace);
    const server = await eventually(() => receiver.spans.find((span) => span.traceId === trace && span.kind === "SPAN_KIND_SERVER"), "the exec request's span");
    expect(server.name).toBe("tools/call mcpx__exec");
    const calls = await eventually(() => {
      const children = receiver.spans.filter((span) => span.parentSpanId === server.spanId && span.kind === "SPAN_KIND_CLIENT");
      return children.length === 2 ? children : undefined;
    }, "the script's two upstream spans");
    expect(calls.map((span) => span.name)).toEqual(["tools/call echo_trace", "tools/call echo_trace"]);
  });

  it("a request mcpx refuses is a span with the JSON-RPC error code", async () => {
    await expect(client.callTool({ name: "traced__no_such_tool", arguments: {} })).rejects.toThrow();
    const server = await eventually(() => receiver.spans.find((span) => span.name === "tools/call traced__no_such_tool"), "the refused call's span");
    expect(server.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });
});

describe("the 2026-07-28 era", () => {
  it("a modern host's request (no session) and the modern upstream's: one trace, mcpx's context in the upstream request's _meta beside its envelope", async () => {
    const modern = new ModernClient({ name: "modern-host", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
    await modern.connect(new ModernHttp(mcpx.url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      await modern.callTool({ name: "modern__greet", arguments: { name: "Ada" }, _meta: { traceparent: `00-${MODERN_TRACE}-${HOST_SPAN}-01` } });
    } finally {
      await modern.close();
    }
    const server = await eventually(
      () => receiver.spans.find((span) => span.traceId === MODERN_TRACE && span.kind === "SPAN_KIND_SERVER"),
      "the modern host's request span",
    );
    expect(server).toMatchObject({ name: "tools/call modern__greet", parentSpanId: HOST_SPAN });
    expect(server.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(server.attributes["mcp.session.id"]).toBeUndefined();
    const upstream = await eventually(() => receiver.spans.find((span) => span.parentSpanId === server.spanId), "its upstream span");
    expect(upstream).toMatchObject({ name: "tools/call greet", kind: "SPAN_KIND_CLIENT" });
    const frames = readFileSync(config.env.MODERN_FRAMES!, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { message: { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } } }).message);
    const sent = frames.find((message) => message.method === "tools/call" && message.params?.name === "greet");
    expect(sent?.params?._meta).toMatchObject({
      traceparent: `00-${MODERN_TRACE}-${upstream.spanId}-01`,
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    });
  });
});

describe("metrics over OTLP", () => {
  it("counts calls by server, tool and outcome, with their durations", async () => {
    await client.callTool({ name: "counted__echo_trace", arguments: {} });
    await client.callTool({ name: "counted__echo_trace", arguments: {} });
    await client.callTool({ name: "counted__fails", arguments: {} });
    await eventually(() => receiver.latest("mcpx.tool.calls", { server: "counted", tool: "echo_trace", outcome: "ok" })?.value === 2, "two echo_trace calls");
    await eventually(() => receiver.latest("mcpx.tool.calls", { server: "counted", tool: "fails", outcome: "error" })?.value === 1, "one failed call");
    const durations = receiver.latest("mcpx.tool.call.duration", { server: "counted", tool: "echo_trace", outcome: "ok" });
    expect(durations?.value).toBe(2);
    expect(durations?.sum).toBeGreaterThan(0);
  });

  it("counts an upstream's restart, and the call it crashed as failed", async () => {
    await expect(client.callTool({ name: "faulty__crash", arguments: {} })).rejects.toThrow();
    await eventually(() => receiver.latest("mcpx.tool.calls", { server: "faulty", tool: "crash", outcome: "failed" })?.value === 1, "the crashed call");
    await eventually(() => receiver.latest("mcpx.upstream.restarts", { server: "faulty" })?.value === 1, "the restart", 20_000);
  });

  it("counts questions: asked, open, answered by surface with the time it took, and expired", async () => {
    // The host takes no elicitation: the question waits in the broker, answered over REST.
    const call = client.callTool({ name: "traced__ask", arguments: {} });
    const question = await eventually(async () => (await questions()).find((entry) => entry.server === "traced"), "the question");
    await eventually(() => receiver.latest("mcpx.questions.open", { server: "traced" })?.value === 1, "one open question");
    const answered = await fetch(new URL(`/v1/questions/${question.id}/answer`, mcpx.url), {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ action: "accept", content: { colour: "teal" } }),
    });
    expect(answered.status).toBe(200);
    expect(textOf(await call)).toContain("teal");
    await eventually(() => receiver.latest("mcpx.questions.answered", { server: "traced", surface: "rest", action: "accept" })?.value === 1, "the answer");
    expect(receiver.latest("mcpx.questions.open", { server: "traced" })?.value).toBe(0);
    expect(receiver.latest("mcpx.questions.asked", { server: "traced" })?.value).toBe(1);
    expect(receiver.latest("mcpx.question.answer.duration", { server: "traced", surface: "rest" })?.value).toBe(1);

    // Nobody answers `brief`'s question within its second: expired, answered cancel.
    await client.callTool({ name: "brief__ask", arguments: {} });
    await eventually(() => receiver.latest("mcpx.questions.expired", { server: "brief" })?.value === 1, "the expiry");
  });

  it("counts host sessions open", async () => {
    await eventually(() => (receiver.latest("mcpx.host.sessions", { transport: "http" })?.value ?? 0) >= 1, "the open session");
  });
});

async function questions(): Promise<Array<{ id: string; server: string }>> {
  const response = await fetch(new URL("/v1/questions", mcpx.url), { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await response.json()) as Array<{ id: string; server: string }>;
}

function only(spans: ReceivedSpan[], predicate: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(predicate);
  expect(found, JSON.stringify(spans, null, 1)).toHaveLength(1);
  return found[0]!;
}

/** The first truthy value `get` gives, looked for every 50 ms (bounded). */
async function eventually<T>(get: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; log:\n${mcpx.stderr().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
