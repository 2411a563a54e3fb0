/**
 * `sampling/createMessage` from an upstream goes to the calling host when it declared the
 * capability, and its answer goes back unchanged; to a host that did not, it is never sent,
 * and the upstream gets an error (there is no `cancel` for it). `roots/list` is the gateway's
 * to answer (roots.test.ts): over stdio mcpx serves that one host, so with no roots in the
 * config it passes on the host's own roots, and an empty list for a host that declared none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateMessageRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, relayConfig, stdioHost, toolJson, type RecordingHost } from "./support.js";

const COMPLETION = { role: "assistant", content: { type: "text", text: "Hello from the host's model" }, model: "test-model", stopReason: "endTurn" };
const ROOTS = { roots: [{ uri: "file:///tmp/project", name: "project" }] };

let config: TempConfig;
beforeAll(() => {
  config = relayConfig({ ask: askingStdio() });
});

describe("a host that declared sampling and roots", () => {
  let host: RecordingHost;
  beforeAll(async () => {
    host = await stdioHost(config, {
      capabilities: { sampling: {}, roots: { listChanged: true } },
      setup: (client) => {
        client.setRequestHandler(CreateMessageRequestSchema, async () => COMPLETION as never);
        client.setRequestHandler(ListRootsRequestSchema, async () => ROOTS);
      },
    });
  });
  afterAll(async () => host?.close());

  it("is asked for a completion, and the upstream gets its answer", async () => {
    const result = await host.client.callTool({ name: "ask__sample", arguments: { prompt: "Say hello" } });
    expect(toolJson(result)).toEqual(COMPLETION);
    const asked = host.requests("sampling/createMessage");
    expect(asked).toHaveLength(1);
    expectValidToClient("2025-11-25", asked[0]);
    // The model's input is never rewritten (no server name in it).
    expect(asked[0]!.params).toEqual({ messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 50 });
  });

  it("is asked for its roots (mcpx serves it alone and the config has none), and the upstream gets them", async () => {
    const result = await host.client.callTool({ name: "ask__roots", arguments: {} });
    expect(toolJson(result)).toEqual(ROOTS);
    const asked = host.requests("roots/list");
    expect(asked).toHaveLength(1);
    expectValidToClient("2025-11-25", asked[0]);
  });
});

describe("a host that declared neither", () => {
  let host: RecordingHost & { log(): string };
  beforeAll(async () => {
    host = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => host?.close());

  it("is not sent sampling/createMessage; the upstream gets an error saying why", async () => {
    const result = await host.client.callTool({ name: "ask__sample", arguments: {} });
    const got = toolJson(result) as { error?: { code: unknown; message: string } };
    expect(got.error?.code).toEqual(expect.any(Number));
    expect(got.error?.message).toContain('did not declare the "sampling" capability');
    expect(host.requests()).toEqual([]);
    expect(host.log()).toContain("the calling host cannot take this question");
  });

  it("is not sent roots/list; the upstream gets an empty list", async () => {
    expect(toolJson(await host.client.callTool({ name: "ask__roots", arguments: {} }))).toEqual({ roots: [] });
    expect(host.requests()).toEqual([]);
  });
});
