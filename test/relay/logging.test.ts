/**
 * `logging/setLevel` from a host reaches the upstreams, and an upstream's log messages during
 * a call come back to that host at the level it asked for, named after the server.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { RawStdioHost } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, frameToolJson, relayConfig } from "./support.js";

let raw: RawStdioHost;

beforeAll(async () => {
  raw = new RawStdioHost(relayConfig({ ask: askingStdio() }));
  await raw.initialize("2025-11-25");
});
afterAll(async () => raw?.close());

it("a host's level reaches the upstream, and only messages at or above it come back, named after the server", async () => {
  const set = await raw.request("level", "logging/setLevel", { level: "warning" });
  expect(set.result).toEqual({});
  const events = frameToolJson(await raw.request("events", "tools/call", { name: "ask__events", arguments: {} }));
  expect(events).toContainEqual(expect.objectContaining({ tool: "logging/setLevel", level: "warning" }));

  const call = await raw.request("logs", "tools/call", { name: "ask__log", arguments: { levels: ["debug", "info", "warning", "error"] } });
  expect(frameToolJson(call)).toEqual({ sent: ["debug", "info", "warning", "error"] });
  // The messages were relayed before the call's answer on this one ordered pipe.
  const messages = raw.frames.filter((frame) => frame.method === "notifications/message");
  expect(messages.map((frame) => frame.params)).toEqual([
    { level: "warning", logger: "ask/tools", data: "a warning message" },
    { level: "error", logger: "ask/tools", data: "a error message" },
  ]);
  for (const message of messages) expectValidToClient("2025-11-25", message);
});
