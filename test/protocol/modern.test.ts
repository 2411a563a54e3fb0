import { describe, expect, it } from "vitest";
import { headerValue, modernRequestHeaders, readHeaderValue } from "../../src/protocol/modern-headers.js";
import { inputResponse, readOutcome, withEnvelope } from "../../src/protocol/modern.js";
import { expectValidToServer } from "../helpers/spec-validator.js";

const envelope = { protocolVersion: "2026-07-28" as const, clientCapabilities: {}, clientInfo: { name: "mcpx", version: "1" } };

describe("the 2026-07-28 request metadata headers", () => {
  it("mirror the body: version, method, name (Base64 sentinel when not plain ASCII), and x-mcp-header arguments", () => {
    const params = withEnvelope({ name: "wetter_ü", arguments: { region: "Nord West", count: 3, deep: { flag: true } } }, envelope);
    const request = { jsonrpc: "2.0" as const, id: 7, method: "tools/call", params };
    expectValidToServer("2026-07-28", request);
    const tool = {
      name: "wetter_ü",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          count: { type: "integer", "x-mcp-header": "Count" },
          deep: { type: "object", properties: { flag: { type: "boolean", "x-mcp-header": "Flag" } } },
        },
      },
    };
    expect(modernRequestHeaders(request, tool)).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": `=?base64?${Buffer.from("wetter_ü").toString("base64")}?=`,
      "mcp-param-region": "Nord West",
      "mcp-param-count": "3",
      "mcp-param-flag": "true",
    });
  });

  it("are absent on a request without the envelope (a legacy request gets none)", () => {
    expect(modernRequestHeaders({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })).toEqual({});
  });
});

describe("reading a received header value", () => {
  it("decodes a well-formed Base64 sentinel, takes anything else literally, and refuses a sentinel that does not decode", () => {
    expect(readHeaderValue(`=?base64?${Buffer.from("Hello").toString("base64")}?=`)).toBe("Hello");
    expect(readHeaderValue(headerValue("wetter_ü"))).toBe("wetter_ü");
    expect(headerValue("a\tb")).toBe(`=?base64?${Buffer.from("a\tb").toString("base64")}?=`);
    expect(headerValue("a b")).toBe("a b");
    expect(readHeaderValue("SGVsbG8=")).toBe("SGVsbG8=");
    expect(readHeaderValue("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
    expect(readHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined(); // padding missing
    expect(readHeaderValue("=?base64?SGVs!!!bG8=?=")).toBeUndefined(); // not the alphabet
    expect(readHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=`)).toBeUndefined(); // not UTF-8
  });
});

describe("reading a modern result", () => {
  it("drops resultType and the server's serverInfo from a complete result, keeping other _meta", () => {
    const outcome = readOutcome("tools/call", {
      resultType: "complete",
      content: [],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" }, keep: 1 },
    });
    expect(outcome).toEqual({ kind: "complete", result: { content: [], _meta: { keep: 1 } } });
  });

  it("treats an unknown resultType, and input_required where MRTR is not allowed, as invalid", () => {
    expect(readOutcome("tools/call", { resultType: "task" }).kind).toBe("invalid");
    expect(readOutcome("tools/list", { resultType: "input_required", requestState: "x" }).kind).toBe("invalid");
    expect(readOutcome("tools/call", { resultType: "input_required" }).kind).toBe("invalid");
  });

  it("shapes each answer as the 2026 InputResponse it stands for", () => {
    expect(inputResponse("elicitation/create", { action: "accept", content: { a: 1 }, _meta: { x: 1 } })).toEqual({ action: "accept", content: { a: 1 } });
    expect(inputResponse("roots/list", { roots: [], _meta: {} })).toEqual({ roots: [] });
  });
});
