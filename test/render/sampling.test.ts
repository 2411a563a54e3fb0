import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { REVISIONS } from "../../src/protocol/revisions.js";
import { renderForHost, type RenderResult } from "../../src/render/render.js";
import { specErrors } from "./spec-schema.js";
import { host, question } from "./support.js";

function sent(result: RenderResult): { method: string; params: JsonObject } {
  if (!result.sendable) throw new Error(`not sendable: ${result.reason}`);
  return result;
}

const sample = (extra: JsonObject = {}, content: unknown = { type: "text", text: "Summarise the crm ticket" }) =>
  question("sampling/createMessage", {
    messages: [{ role: "user", content }],
    maxTokens: 200,
    systemPrompt: "You are terse.",
    includeContext: "none",
    ...extra,
  });
const audio = { type: "audio", data: "AAAA", mimeType: "audio/wav" };
const tools = { tools: [{ name: "lookup", inputSchema: { type: "object" } }], toolChoice: { mode: "auto" } };

describe("sampling/createMessage", () => {
  it.each(REVISIONS)("goes verbatim to a %s host that declared sampling", (revision) => {
    const q = sample();
    const { method, params } = sent(renderForHost(q, host(revision, { sampling: {} })));
    expect(method).toBe("sampling/createMessage");
    expect(params).toEqual(q.params);
    expect(params).not.toBe(q.params);
    expect(specErrors(revision, method, params)).toEqual([]);
  });

  it("does not go to a host that did not declare sampling", () => {
    expect(renderForHost(sample(), host("2025-11-25", { elicitation: {}, roots: {} }))).toEqual({
      sendable: false,
      reason: 'the host did not declare the "sampling" capability',
    });
  });

  it("never alters the messages, nameServer or not", () => {
    const q = sample();
    expect(sent(renderForHost(q, host("2025-06-18", { sampling: {} }), { nameServer: true })).params).toEqual(q.params);
  });

  it("offers tools only to a 2025-11-25+ host that declared sampling.tools", () => {
    const q = sample(tools);
    const withTools = sent(renderForHost(q, host("2025-11-25", { sampling: { tools: {} } })));
    expect(withTools.params).toEqual(q.params);
    expect(specErrors("2025-11-25", withTools.method, withTools.params)).toEqual([]);
    expect(renderForHost(q, host("2025-11-25", { sampling: {} }))).toEqual({
      sendable: false,
      reason: expect.stringMatching(/sampling\.tools/),
    });
    expect(renderForHost(q, host("2025-06-18", { sampling: { tools: {} } }))).toEqual({
      sendable: false,
      reason: expect.stringMatching(/2025-06-18 has no tool use/),
    });
  });

  it("does not send audio to 2024-11-05 rather than change the model's input", () => {
    const q = sample({}, audio);
    expect(renderForHost(q, host("2024-11-05", { sampling: {} }))).toEqual({
      sendable: false,
      reason: expect.stringMatching(/"audio".*2024-11-05/),
    });
    expect(specErrors("2024-11-05", q.method, q.params)).not.toEqual([]);
    const later = sent(renderForHost(q, host("2025-03-26", { sampling: {} })));
    expect(specErrors("2025-03-26", later.method, later.params)).toEqual([]);
  });

  it("sends lists of content blocks and tool results only where the revision has them", () => {
    const list = sample({}, [
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
    expect(renderForHost(list, host("2025-06-18", { sampling: {} }))).toEqual({
      sendable: false,
      reason: expect.stringMatching(/list of content blocks/),
    });
    const ok = sent(renderForHost(list, host("2025-11-25", { sampling: {} })));
    expect(specErrors("2025-11-25", ok.method, ok.params)).toEqual([]);
    const result = sample({}, { type: "tool_result", toolUseId: "t1", content: [] });
    expect(renderForHost(result, host("2025-06-18", { sampling: {} })).sendable).toBe(false);
    expect(renderForHost(sample({}, { type: "video" }), host("2025-11-25", { sampling: {} }))).toEqual({
      sendable: false,
      reason: expect.stringMatching(/"video"/),
    });
  });

  it("drops task metadata, which addressed mcpx", () => {
    const q = sample({ task: { ttl: 1000 } });
    const { task: _, ...rest } = q.params;
    expect(sent(renderForHost(q, host("2025-11-25", { sampling: {} }))).params).toEqual(rest);
  });
});
