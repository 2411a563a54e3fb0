/**
 * A 2026-07-28 host's retry whose `inputResponses` hold an answer the protocol forbids (an
 * unknown action, a decline with content, accept with content that is no form object) is
 * refused at once with -32602 naming the key and what is wrong; the question stays open, so a
 * retry with a well-formed answer and the same requestState still completes the call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { textOf } from "../helpers/upstreams.js";

const V = "2026-07-28";
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  mcpx = await startMcpxHttp(
    writeConfig({
      mcpServers: {
        asking: nodeServer("asking-server.mjs", ["--stdio"]),
        modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]),
      },
    }),
  );
});

afterAll(async () => {
  await mcpx?.close();
});

type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string } };

async function call(id: number, params: Record<string, unknown>): Promise<Reply> {
  const reply = await post(
    mcpx.url,
    {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {} } },
        ...params,
      },
    },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": String(params.name) },
  );
  for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
  return reply.messages[0] as Reply;
}

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("a malformed answer in a 2026-07-28 retry", () => {
  it.each([
    ["an unknown action", { action: "bogus" }, /"action" must be/],
    ["a decline with content", { action: "decline", content: { name: "x" } }, /decline carries no "content"/],
    ["accept with string content", { action: "accept", content: "octocat" }, /"content" must be an object/],
    ["an answer that is no object", "accept", /must be an object/],
  ])("is refused at once with -32602 (%s); a correct retry still completes", async (_label, bad, why) => {
    const tool = { name: "asking__ask_form", arguments: { message: `malformed ${_label}`, schema: FORM } };
    const first = await call(1, tool);
    expect(first.result?.resultType).toBe("input_required");
    const [key] = Object.keys(first.result?.inputRequests as object);
    const requestState = first.result?.requestState;
    const refused = await call(2, { ...tool, requestState, inputResponses: { [key!]: bad } });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toContain(JSON.stringify(key));
    expect(refused.error?.message).toMatch(why);
    const done = await call(3, { ...tool, requestState, inputResponses: { [key!]: { action: "accept", content: { name: "octocat" } } } });
    expect(done.result?.resultType).toBe("complete");
    expect(JSON.parse(textOf(done.result))).toEqual({ action: "accept", content: { name: "octocat" } });
  });

  it("a sampling answer that is no CreateMessageResult is refused the same way (a modern upstream's input request)", async () => {
    const tool = { name: "modern__sample", arguments: {} };
    const first = await call(11, tool);
    expect(first.result?.inputRequests).toMatchObject({ q: { method: "sampling/createMessage" } });
    const requestState = first.result?.requestState;
    const refused = await call(12, { ...tool, requestState, inputResponses: { q: { role: "assistant", content: { type: "text", text: "hi" } } } });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toMatch(/"q".*"model"/);
    const sampled = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
    const done = await call(13, { ...tool, requestState, inputResponses: { q: sampled } });
    expect(JSON.parse(textOf(done.result))).toEqual(sampled);
  });
});
