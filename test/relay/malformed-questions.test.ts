/**
 * An upstream's question the protocol forbids is the upstream's error, never the host's, and
 * never relayed. A URL question is checked as a form one is: its `url` must be there, a string,
 * an absolute http(s) URL, and a 2025-11-25 server's must carry an `elicitationId`.
 *
 * - A legacy upstream's `elicitation/create` that fails is answered -32602 (the host is not asked).
 * - A 2026-07-28 upstream's input request that fails, names a method mcpx does not take or a mode
 *   it does not know, ends the host's call with -32603 naming the server, the detail in `data`
 *   (HTTP 200: the host's own request was valid).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, httpHost, relayConfig, toolJson, type RecordingHost } from "./support.js";

const V = "2026-07-28";
let mcpx: RunningMcpx & { url: URL };
let legacyHost: RecordingHost;

beforeAll(async () => {
  mcpx = await startMcpxHttp(relayConfig({ ask: askingStdio(), modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]) }));
  legacyHost = await httpHost(mcpx.url, {
    name: "url-host",
    capabilities: { elicitation: { form: {}, url: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" })),
  });
});

afterAll(async () => {
  await legacyHost?.close();
  await mcpx?.close();
});

async function modernCall(id: number, name: string, args: Record<string, unknown>) {
  const reply = await post(
    mcpx.url,
    {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } } },
        name,
        arguments: args,
      },
    },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": name },
  );
  for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
  return {
    status: reply.status,
    message: reply.messages[0] as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } },
  };
}

const BAD_URLS: Array<[string, string[], Record<string, unknown>, RegExp]> = [
  ["no url", ["url"], {}, /"url"/],
  ["a url that is no string", [], { url: 42 }, /"url"/],
  ["a relative url", [], { url: "/sign-in" }, /absolute http/],
  ["a javascript: url", [], { url: "javascript:alert(1)" }, /absolute http/],
  ["no elicitationId from a 2025-11-25 server", ["elicitationId"], {}, /elicitationId/],
];

describe("a legacy upstream's URL question the protocol forbids", () => {
  it.each(BAD_URLS)("is answered -32602 and reaches no host (%s)", async (_label, omit, args, why) => {
    const before = legacyHost.requests("elicitation/create").length;
    const result = await legacyHost.client.callTool({ name: "ask__ask_url", arguments: { omit, ...args } });
    const answer = toolJson(result) as { error?: { code: number; message: string } };
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(why);
    expect(legacyHost.requests("elicitation/create")).toHaveLength(before);
  });

  it("a modern host calling such a tool is not asked either", async () => {
    const { message } = await modernCall(1, "ask__ask_url", { omit: ["url"] });
    expect(message.result?.resultType).toBe("complete");
    const answer = toolJson(message.result) as { error?: { code: number } };
    expect(answer.error?.code).toBe(-32602);
  });
});

describe("a 2026-07-28 upstream's input request mcpx refuses", () => {
  const url = (params: Record<string, unknown>) => ({ method: "elicitation/create", params: { mode: "url", message: "Sign in", ...params } });
  it.each([
    ["a method mcpx does not take", { method: "tools/call", params: { name: "x" } }, /tools\/call/],
    ["an unknown elicitation mode", { method: "elicitation/create", params: { mode: "wizard", message: "m" } }, /wizard|mode/],
    ["a URL question without a url", url({}), /"url"/],
    ["a URL question with a relative url", url({ url: "sign-in" }), /absolute http/],
  ])("ends the host's call with -32603 naming the server (%s)", async (_label, request, why) => {
    const { status, message } = await modernCall(2, "modern__ask_raw", { request });
    expect(status).toBe(200);
    expect(message.error?.code).toBe(-32603);
    expect(message.error?.message).toContain('"modern"');
    expect(message.error?.message).toMatch(why);
    expect(message.error?.data).toMatchObject({ server: "modern", inputKey: "q" });
  });

  it("a well-formed URL question still reaches the host as an input request", async () => {
    const { message } = await modernCall(3, "modern__ask_raw", { request: url({ url: "https://example.com/sign-in" }) });
    expect(message.result?.resultType).toBe("input_required");
    expect(Object.values(message.result?.inputRequests as object)).toMatchObject([
      { method: "elicitation/create", params: { mode: "url", url: "https://example.com/sign-in" } },
    ]);
  });
});
