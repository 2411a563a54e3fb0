/**
 * The spec oracle must be able to fail: each check here pairs a message a revision accepts with
 * one it rejects, so a validator that accepted everything would not pass.
 */
import { describe, expect, it } from "vitest";
import { defines, LEGACY_REVISIONS, type Revision } from "../src/protocol/revisions.js";
import { expectValidToClient, validateDefinition, validateToClient, validateToServer } from "./helpers/spec-validator.js";

const result = (value: object) => ({ jsonrpc: "2.0", id: 1, result: value });
const request = (method: string, params?: object) => ({ jsonrpc: "2.0", id: 7, method, ...(params ? { params } : {}) });
const notification = (method: string, params?: object) => ({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });

const tool = { name: "weather", description: "Forecast", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
const icon = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };

describe("strict mode catches fields a revision does not have", () => {
  const withStructured = result({ content: [{ type: "text", text: "22" }], structuredContent: { celsius: 22 } });

  it("rejects structuredContent in a 2024-11-05 CallToolResult, which the lax schema lets through", () => {
    const strict = validateToClient("2024-11-05", withStructured, "tools/call");
    expect(strict.valid).toBe(false);
    expect(strict.errors).toEqual([expect.stringContaining('/result: unexpected property "structuredContent"')]);
    expect(validateToClient("2024-11-05", withStructured, "tools/call", { mode: "lax" }).valid).toBe(true);
    expect(validateToClient("2025-06-18", withStructured, "tools/call").valid).toBe(true);
  });

  it("accepts audio content from 2025-03-26 on only", () => {
    const audio = result({ content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] });
    const old = validateToClient("2024-11-05", audio, "tools/call");
    expect(old.valid).toBe(false);
    expect(old.errors).toEqual([expect.stringContaining('/result/content/0/type: "audio" is not allowed here')]);
    expect(validateToClient("2025-03-26", audio, "tools/call").errors).toEqual([]);
  });

  it("accepts a tool title from 2025-06-18 on only", () => {
    const titled = result({ tools: [{ ...tool, title: "Weather" }] });
    const old = validateToClient("2025-03-26", titled, "tools/list");
    expect(old.valid).toBe(false);
    expect(old.errors).toEqual([expect.stringContaining('/result/tools/0: unexpected property "title"')]);
    expect(validateToClient("2025-06-18", titled, "tools/list").errors).toEqual([]);
  });

  it("accepts icons from 2025-11-25 on only", () => {
    const tools = result({ tools: [{ ...tool, icons: [icon] }] });
    const resources = result({ resources: [{ uri: "file:///a.txt", name: "a.txt", icons: [icon] }] });
    for (const revision of ["2024-11-05", "2025-03-26", "2025-06-18"] as const) {
      expect(validateToClient(revision, tools, "tools/list").valid).toBe(false);
      expect(validateToClient(revision, resources, "resources/list").valid).toBe(false);
    }
    expect(validateToClient("2025-11-25", tools, "tools/list").errors).toEqual([]);
    expect(validateToClient("2025-11-25", resources, "resources/list").errors).toEqual([]);
  });

  it("rejects a progress message before 2025-03-26", () => {
    const progress = notification("notifications/progress", { progressToken: "t", progress: 1, total: 2, message: "half" });
    expect(validateToClient("2024-11-05", progress).valid).toBe(false);
    expect(validateToClient("2025-03-26", progress).errors).toEqual([]);
  });

  it("rejects unknown fields nested in content, annotations and resource contents", () => {
    const lastModified = result({ content: [{ type: "text", text: "x", annotations: { lastModified: "2025-01-01T00:00:00Z" } }] });
    expect(validateToClient("2025-03-26", lastModified, "tools/call").valid).toBe(false);
    expect(validateToClient("2025-06-18", lastModified, "tools/call").valid).toBe(true);
    const meta = result({ contents: [{ uri: "file:///a", text: "a", _meta: { k: 1 } }] });
    expect(validateToClient("2025-03-26", meta, "resources/read").valid).toBe(false);
    expect(validateToClient("2025-06-18", meta, "resources/read").valid).toBe(true);
  });
});

describe("strict mode keeps what the spec leaves open", () => {
  it("accepts any keys inside _meta, and JSON Schema keywords in a tool's inputSchema", () => {
    const open = result({
      tools: [{ ...tool, inputSchema: { ...tool.inputSchema, additionalProperties: false, description: "args" } }],
      _meta: { "example.com/anything": { nested: [1, 2] } },
    });
    expect(validateToClient("2024-11-05", open, "tools/list").errors).toEqual([]);
  });

  it("treats ping, logging/setLevel and resources/subscribe results as the open empty result", () => {
    for (const method of ["ping", "logging/setLevel", "resources/subscribe"]) {
      expect(validateToClient("2024-11-05", result({}), method).errors).toEqual([]);
      expect(validateToClient("2025-11-25", result({ _meta: { a: 1 } }), method).errors).toEqual([]);
    }
  });

  it("merges allOf compositions instead of breaking them (2025-11-25 tasks)", () => {
    const task = { taskId: "t1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: null };
    expect(validateToClient("2025-11-25", result({ ...task, _meta: { a: 1 } }), "tasks/get").errors).toEqual([]);
    expect(validateToClient("2025-11-25", result({ ...task, bogus: 1 }), "tasks/get").valid).toBe(false);
    const status = notification("notifications/tasks/status", { ...task, _meta: { a: 1 } });
    expect(validateToClient("2025-11-25", status).errors).toEqual([]);
    expect(validateToClient("2025-11-25", notification("notifications/tasks/status", { ...task, bogus: 1 })).valid).toBe(false);
  });
});

describe("initialize", () => {
  function initializeResult(revision: Revision): object {
    return {
      protocolVersion: revision,
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        ...(defines(revision, "completions") ? { completions: {} } : {}),
      },
      serverInfo: { name: "mcpx", version: "0.1.0" },
      instructions: "One endpoint for many servers.",
    };
  }

  it.each(LEGACY_REVISIONS)("a valid initialize result passes for %s", (revision) => {
    expect(validateToClient(revision, result(initializeResult(revision)), "initialize").errors).toEqual([]);
  });

  it("rejects a completions capability before 2025-03-26 and a serverInfo title before 2025-06-18", () => {
    const withCompletions = { ...initializeResult("2025-03-26"), protocolVersion: "2024-11-05" };
    expect(validateToClient("2024-11-05", result(withCompletions), "initialize").valid).toBe(false);
    const titled = { ...initializeResult("2025-03-26"), serverInfo: { name: "mcpx", version: "1", title: "MCPX" } };
    expect(validateToClient("2025-03-26", result(titled), "initialize").valid).toBe(false);
    expect(validateToClient("2025-06-18", result(titled), "initialize").valid).toBe(true);
  });

  it.each(LEGACY_REVISIONS)("a client's initialize request and initialized notification pass for %s", (revision) => {
    const params = {
      protocolVersion: revision,
      capabilities: { roots: { listChanged: true }, sampling: {} },
      clientInfo: { name: "host", version: "1.0.0" },
    };
    expect(validateToServer(revision, request("initialize", params)).errors).toEqual([]);
    expect(validateToServer(revision, notification("notifications/initialized")).errors).toEqual([]);
  });
});

describe("server requests and the client's answers", () => {
  const elicit = {
    message: "Which city?",
    requestedSchema: { type: "object", properties: { city: { type: "string", title: "City" } }, required: ["city"] },
  };

  it("accepts a well-formed 2025-06-18 ElicitRequest and rejects one with mode", () => {
    expect(validateToClient("2025-06-18", request("elicitation/create", elicit)).errors).toEqual([]);
    const withMode = validateToClient("2025-06-18", request("elicitation/create", { ...elicit, mode: "form" }));
    expect(withMode.valid).toBe(false);
    expect(withMode.errors).toEqual([expect.stringContaining('/params: unexpected property "mode"')]);
    expect(validateToClient("2025-11-25", request("elicitation/create", { ...elicit, mode: "form" })).errors).toEqual([]);
  });

  it("rejects elicitation before 2025-06-18, and elicitation defaults before 2025-11-25", () => {
    const early = validateToClient("2025-03-26", request("elicitation/create", elicit));
    expect(early.errors).toEqual([expect.stringContaining('"elicitation/create" is not a request a 2025-03-26 client can receive')]);
    const withDefault = {
      ...elicit,
      requestedSchema: { type: "object", properties: { city: { type: "string", default: "Oslo" } } },
    };
    expect(validateToClient("2025-06-18", request("elicitation/create", withDefault)).valid).toBe(false);
    expect(validateToClient("2025-11-25", request("elicitation/create", withDefault)).valid).toBe(true);
  });

  it("validates results of server requests sent by the client", () => {
    expect(validateToServer("2025-06-18", result({ action: "accept", content: { city: "Oslo" } }), "elicitation/create").errors).toEqual([]);
    expect(validateToServer("2025-06-18", result({ action: "maybe" }), "elicitation/create").valid).toBe(false);
    const sampled = { role: "assistant", content: { type: "text", text: "hi" }, model: "m", stopReason: "endTurn" };
    expect(validateToServer("2024-11-05", result(sampled), "sampling/createMessage").errors).toEqual([]);
    expect(validateToServer("2024-11-05", result({ roots: [{ uri: "file:///home" }] }), "roots/list").errors).toEqual([]);
    expect(validateToServer("2024-11-05", result({ roots: [{ uri: "file:///home", _meta: {} }] }), "roots/list").valid).toBe(false);
  });

  it("validates sampling, roots and ping requests from servers", () => {
    const sampling = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 100 };
    for (const revision of LEGACY_REVISIONS) {
      expect(validateToClient(revision, request("sampling/createMessage", sampling)).errors).toEqual([]);
      expect(validateToClient(revision, request("roots/list")).errors).toEqual([]);
      expect(validateToClient(revision, request("ping")).errors).toEqual([]);
    }
  });
});

describe("direction, envelope and errors", () => {
  it("checks that the method goes the right way", () => {
    expect(validateToClient("2025-06-18", request("tools/call", { name: "x" })).valid).toBe(false);
    expect(validateToServer("2025-06-18", request("tools/call", { name: "x" })).errors).toEqual([]);
    expect(validateToServer("2025-06-18", result({ tools: [] }), "tools/list").valid).toBe(false);
    expect(validateToClient("2025-06-18", notification("notifications/initialized")).valid).toBe(false);
  });

  it("needs the request method to validate a result", () => {
    const unknown = validateToClient("2025-06-18", result({ tools: [] }));
    expect(unknown.valid).toBe(false);
    expect(unknown.errors).toEqual(["/result: pass the request's method to validate a result"]);
  });

  it("validates error responses and the envelope", () => {
    const error = { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } };
    for (const revision of LEGACY_REVISIONS) expect(validateToClient(revision, error).errors).toEqual([]);
    expect(validateToClient("2025-06-18", { ...error, extra: true }).valid).toBe(false);
    expect(validateToClient("2025-06-18", { ...result({ tools: [] }), jsonrpc: "1.0" }, "tools/list").valid).toBe(false);
    expect(validateToClient("2025-06-18", "not a message").valid).toBe(false);
  });

  it("validates a bare definition", () => {
    expect(validateDefinition("2025-06-18", "Tool", { ...tool, title: "Weather" }).valid).toBe(true);
    expect(validateDefinition("2025-03-26", "Tool", { ...tool, title: "Weather" }).valid).toBe(false);
    expect(() => validateDefinition("2024-11-05", "ResourceLink", {})).toThrow(/no definition/);
  });

  it("expectValidToClient throws with readable errors", () => {
    const bad = result({ content: [{ type: "text", text: "x", extra: 1 }], structuredContent: {} });
    expect(() => expectValidToClient("2024-11-05", bad, "tools/call")).toThrow(
      /not valid for a 2024-11-05 client:\n {2}\/result\/content\/0: unexpected property "extra" \(TextContent\)\n {2}\/result: unexpected property "structuredContent"/,
    );
    expect(() => expectValidToClient("2025-06-18", result({ content: [] }), "tools/call")).not.toThrow();
  });
});
