/**
 * `elicitation.mode: "host"`: the calling host is the only one asked. A question it cannot take
 * is over at once instead of waiting for people: a 2026-07-28 host's call fails with -32021
 * naming the capability it did not declare (HTTP 400), whichever era the upstream is; a legacy
 * host's question is cancelled and its call goes on. A host that can take it is asked as ever.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { firstText } from "../helpers/upstreams.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const V = "2026-07-28";
const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  const config = writeConfig({
    mcpServers: {
      asking: nodeServer("asking-server.mjs", ["--stdio"]),
      modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]),
    },
    elicitation: { mode: "host" },
  });
  mcpx = await startMcpxHttp(config);
});

afterAll(async () => {
  await mcpx?.close();
});

async function modernCall(id: number, name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>) {
  const reply = await post(
    mcpx.url,
    {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": capabilities }, name, arguments: args },
    },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": name },
  );
  for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
  return { status: reply.status, message: reply.messages[0] as { result?: Record<string, unknown>; error?: { code: number; data?: unknown } } };
}

/** A raw host of its own `mcpx serve` on stdio, in host mode, with the 2025-era asking server. */
function stdioHostInHostMode(): RawStdioHost {
  return new RawStdioHost(writeConfig({ mcpServers: { ask: nodeServer("asking-server.mjs", ["--stdio"]) }, elicitation: { mode: "host" } }));
}

describe('elicitation.mode "host"', () => {
  it("a modern host without elicitation gets -32021 naming it, for a legacy upstream's mid-call elicitation", async () => {
    const { status, message } = await modernCall(1, "asking__ask_form", { message: "Who?", schema: FORM }, {});
    expect(status).toBe(400);
    expect(message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  it("a modern host without sampling gets -32021 naming it, for a modern upstream's sampling input request", async () => {
    const { status, message } = await modernCall(2, "modern__sample", {}, { elicitation: {} });
    expect(status).toBe(400);
    expect(message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it("a modern host that declared the capability is asked as ever", async () => {
    const { message } = await modernCall(3, "modern__ask_name", { rounds: 1 }, { elicitation: {} });
    expect(message.result).toMatchObject({ resultType: "input_required" });
    expect(Object.keys(message.result?.inputRequests as object)).toEqual(["name1"]);
  });

  it("a legacy host without elicitation: the question is cancelled at once and the call goes on", async () => {
    const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: {} });
    await client.connect(new LegacyHttp(mcpx.url));
    try {
      const result = await client.callTool({ name: "asking__ask_form", arguments: { message: "Who?", schema: FORM } });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(JSON.parse(text)).toEqual({ action: "cancel" });
    } finally {
      await client.close();
    }
  });

  it("on stdio too: a modern request without elicitation gets -32021 naming it", async () => {
    const host = stdioHostInHostMode();
    try {
      const meta = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
      const reply = await host.request(1, "tools/call", { _meta: meta, name: "ask__ask_form", arguments: { message: "Who?", schema: FORM } });
      expectValidToClient(V, reply, "tools/call");
      expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    } finally {
      await host.close();
    }
  });

  it("a legacy host whose inline answer the protocol does not allow: the question is cancelled at once", async () => {
    const host = stdioHostInHostMode();
    try {
      await host.initialize("2025-11-25", { elicitation: {} });
      host.send({ jsonrpc: "2.0", id: "c1", method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Who?" } } });
      const request = await host.waitFor((frame) => frame.method === "elicitation/create");
      host.send({ jsonrpc: "2.0", id: request.id, result: { action: "bogus" } });
      const answer = await host.waitFor((frame) => frame.id === "c1" && !("method" in frame));
      expect(JSON.parse(firstText(answer))).toEqual({ action: "cancel" });
    } finally {
      await host.close();
    }
  });
});
