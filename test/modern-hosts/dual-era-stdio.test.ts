/**
 * `mcpx serve` on stdio, dual era: a 2026-07-28 host (the 2.x SDK client, `mode: "auto"`)
 * is served per request without `initialize`; a raw host that sends `initialize` selects the
 * legacy era for its process. Every frame mcpx sends is validated against the host's revision.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { nodeServer, RawStdioHost, stdioServeParams, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { recording, type Received } from "../helpers/recording-transport.js";

const V = "2026-07-28";
const envelope = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

function config() {
  return writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs"), asking: nodeServer("asking-server.mjs", ["--stdio"]) } });
}

describe("mcpx serve (stdio): 2026-07-28 hosts", () => {
  it("the 2.x SDK client in auto mode finds the modern era, lists and calls tools", async () => {
    const frames: Received[] = [];
    const client = new ModernClient({ name: "modern-host", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(recording(new StdioClientTransport(stdioServeParams(config())), frames));
    closers.push(() => client.close());
    expect(client.getProtocolEra()).toBe("modern");
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("changing__subscriptions");
    const result = await client.callTool({ name: "changing__subscriptions", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "[]" }]);
    expect(frames.length).toBeGreaterThan(0);
    for (const { frame, requestMethod } of frames) expectValidToClient(V, frame, requestMethod);
  });

  it("the crown case on stdio: a 2025-era upstream's mid-call elicitation is answered by the modern host's retry", async () => {
    const frames: Received[] = [];
    const client = new ModernClient({ name: "modern-host", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: "auto" } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "stdio" } }));
    await client.connect(recording(new StdioClientTransport(stdioServeParams(config())), frames));
    closers.push(() => client.close());
    const form = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const result = await client.callTool({ name: "asking__ask_form", arguments: { message: "Who?", schema: form } });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual({ action: "accept", content: { name: "stdio" } });
    const kinds = frames
      .filter((received) => received.requestMethod === "tools/call")
      .map((received) => (received.frame.result as { resultType: string }).resultType);
    expect(kinds).toEqual(["input_required", "complete"]);
    for (const { frame, requestMethod } of frames) expectValidToClient(V, frame, requestMethod);
  });

  it("removed methods are unknown (-32601); a malformed envelope is -32602; an unsupported version -32022 with the list", async () => {
    const host = new RawStdioHost(config());
    closers.push(() => host.close());
    const ping = await host.request(1, "ping", { _meta: envelope });
    expect((ping.error as { code: number }).code).toBe(-32601);
    const level = await host.request(2, "logging/setLevel", { _meta: envelope, level: "info" });
    expect((level.error as { code: number }).code).toBe(-32601);
    const malformed = await host.request(3, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": V } });
    expect((malformed.error as { code: number }).code).toBe(-32602);
    const unsupported = await host.request(4, "tools/list", { _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2025-11-25" } });
    expect(unsupported.error).toMatchObject({ code: -32022, data: { supported: [V], requested: "2025-11-25" } });
    const discover = await host.request(5, "server/discover", { _meta: envelope });
    for (const [frame, method] of [[ping], [level], [malformed], [unsupported], [discover, "server/discover"]] as const) expectValidToClient(V, frame, method);
  });

  it("initialize selects the legacy era for the process: modern-only methods are then unknown", async () => {
    const host = new RawStdioHost(config());
    closers.push(() => host.close());
    const init = await host.initialize("2026-07-28");
    // A handshake is legacy whatever it asks for: counter-offered the newest legacy revision.
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-11-25");
    const discover = await host.request(2, "server/discover", { _meta: envelope });
    expect((discover.error as { code: number }).code).toBe(-32601);
    const list = await host.request(3, "tools/list", { _meta: envelope });
    expect(list.result).not.toHaveProperty("resultType");
    expectValidToClient("2025-11-25", list, "tools/list");
  });
});
