/**
 * Following the caller's era (issue 13, item 12): a legacy host's call to a server that speaks
 * both eras goes on a legacy connection of its own, where the server may ask it the 2025 way; a
 * server whose legacy endpoint has no session (the SDK 2.x `createMcpHandler` default) could ask
 * nothing there, so its legacy hosts stay on the 2026-07-28 connection, which asks them through
 * input_required rounds. Either way the host is asked, inline, in its own revision.
 */
import { describe, expect, it } from "vitest";
import { fixture, nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText, startHttpFixture } from "../helpers/upstreams.js";

/** A 2025-11-25 host calls ask_name, answers the question it is sent, and gets the result; mcpx's log comes back. */
async function askedAndAnswered(upstream: object): Promise<string> {
  const host = new RawStdioHost(writeConfig({ mcpServers: { modern: upstream } }));
  try {
    await host.initialize("2025-11-25", { elicitation: {} });
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "modern__ask_name", arguments: {} } });
    const request = await host.waitFor((frame) => frame.method === "elicitation/create", 30_000);
    expectValidToClient("2025-11-25", request);
    host.send({ jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { name: "Lin" } } });
    const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame), 30_000);
    expectValidToClient("2025-11-25", answer, "tools/call");
    expect(firstText(answer)).toContain("Lin");
    return host.running.stderr();
  } finally {
    await host.close();
  }
}

describe("a legacy host's call to a server that speaks both eras", () => {
  it("over stdio goes on a legacy connection of its own, and is asked there", async () => {
    const log = await askedAndAnswered(nodeServer("modern-server.mjs", ["--stdio"]));
    expect(log).toContain("legacy hosts' calls go on a legacy connection of their own");
  }, 60_000);

  it("over HTTP to a sessionless legacy endpoint stays on the 2026-07-28 connection, and is asked through its rounds", async () => {
    const http = await startHttpFixture("modern-server.mjs", {}, ["--http"]);
    try {
      const log = await askedAndAnswered({ url: http.url });
      expect(log).toContain("legacy hosts' calls stay on the 2026-07-28 connection: its legacy endpoint gave no session");
    } finally {
      await http.close();
    }
  }, 60_000);

  it("to a server that speaks 2026-07-28 alone stays on that connection", async () => {
    const log = await askedAndAnswered({ command: process.execPath, args: [fixture("modern-server.mjs"), "--stdio", "--modern-only"] });
    expect(log).toContain("legacy hosts' calls stay on the 2026-07-28 connection: the server did not take the legacy handshake");
  }, 60_000);
});
