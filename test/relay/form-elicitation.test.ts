/**
 * A form question from an upstream reaches the host whose call caused it, named after the
 * server (design rule 3) and otherwise verbatim when host and upstream share 2025-11-25, and
 * the host's answer reaches the upstream unchanged. Over stdio and Streamable HTTP upstreams,
 * with SDK 1.x and 2.x hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransport2 } from "@modelcontextprotocol/client/stdio";
import { RawStdioHost, stdioServeParams, type TempConfig } from "../helpers/mcpx.js";
import type { HttpFixture } from "../helpers/upstreams.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, frameToolJson, isRequestFrame, relayConfig, startAskingHttp, stdioHost, toolJson, type Frame, type RecordingHost } from "./support.js";

/** A 2025-11-25 form schema using what that revision added ($schema, defaults on every type). */
const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    name: { type: "string", title: "Name", description: "Your full name", minLength: 1, maxLength: 40, default: "Ada" },
    email: { type: "string", format: "email" },
    age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
    subscribe: { type: "boolean", default: false },
  },
  required: ["name"],
};
const ANSWER = { action: "accept", content: { name: "Ada Lovelace", email: "ada@example.com", age: 36, subscribe: true } };

let upstreamHttp: HttpFixture;
let config: TempConfig;

beforeAll(async () => {
  upstreamHttp = await startAskingHttp();
  config = relayConfig({
    ask: askingStdio(),
    askhttp: { url: upstreamHttp.url },
    plain: askingStdio({ passthrough: true }),
  });
});
afterAll(async () => upstreamHttp?.close());

describe("an SDK 1.x host", () => {
  let host: RecordingHost;
  beforeAll(async () => {
    host = await stdioHost(config, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ANSWER),
    });
  });
  afterAll(async () => host?.close());

  for (const server of ["ask", "askhttp"]) {
    it(`is asked the ${server} upstream's form question and its answer reaches the upstream`, async () => {
      const before = host.requests("elicitation/create").length;
      const result = await host.client.callTool({ name: `${server}__ask_form`, arguments: { message: "Who are you?", schema: SCHEMA } });

      expect(toolJson(result)).toEqual(ANSWER);
      const asked = host.requests("elicitation/create").slice(before);
      expect(asked).toHaveLength(1);
      const params = asked[0]!.params as Record<string, unknown>;
      expect(params.message).toBe(`[${server}] Who are you?`);
      expect(params.requestedSchema).toEqual(SCHEMA);
      expectValidToClient("2025-11-25", asked[0]);
    });
  }

  it("gets a passthrough server's message verbatim", async () => {
    const before = host.requests("elicitation/create").length;
    const result = await host.client.callTool({ name: "ask_form", arguments: { message: "Who are you?", schema: SCHEMA } });

    expect(toolJson(result)).toEqual(ANSWER);
    const asked = host.requests("elicitation/create").slice(before);
    expect(asked.map((frame) => (frame.params as { message: string }).message)).toEqual(["Who are you?"]);
  });
});

describe("an SDK 2.x host", () => {
  it("is asked with the server named and the upstream's schema, and its answer reaches the upstream", async () => {
    const client = new Client2({ name: "relay-test-host-2x", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: Array<{ message: string; requestedSchema: unknown }> = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params as { message: string; requestedSchema: unknown });
      return ANSWER as { action: "accept"; content: Record<string, string | number | boolean> };
    });
    await client.connect(new StdioClientTransport2({ ...stdioServeParams(config), stderr: "ignore" }));
    try {
      const result = await client.callTool({ name: "askhttp__ask_form", arguments: { message: "Who are you?", schema: SCHEMA } });
      expect(toolJson(result)).toEqual(ANSWER);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toBe("[askhttp] Who are you?");
      expect(asked[0]!.requestedSchema).toMatchObject({ type: "object", properties: SCHEMA.properties, required: ["name"] });
    } finally {
      await client.close();
    }
  });
});

describe("the raw frames mcpx sends a 2025-11-25 host", () => {
  let raw: RawStdioHost;
  beforeAll(async () => {
    raw = new RawStdioHost(config);
    await raw.initialize("2025-11-25", { elicitation: { form: {} } });
  });
  afterAll(async () => raw?.close());

  it("are a valid elicitation/create request, and the answer sent back is what the upstream gets", async () => {
    raw.send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "ask__ask_form", arguments: { schema: SCHEMA } } });
    const question = await raw.waitFor((frame) => isRequestFrame(frame, "elicitation/create"));
    expectValidToClient("2025-11-25", question);
    expect((question.params as { requestedSchema: unknown }).requestedSchema).toEqual(SCHEMA);

    raw.send({ jsonrpc: "2.0", id: question.id, result: { action: "decline" } });
    const answer = await raw.waitFor((frame: Frame) => frame.id === 10 && !("method" in frame));
    expect(frameToolJson(answer)).toEqual({ action: "decline" });
    expectValidToClient("2025-11-25", answer, "tools/call");
  });
});
