/**
 * URL-mode questions go only to a 2025-11-25 host that declared `elicitation.url`, with the
 * upstream's elicitationId; a form-only host is never sent one (the upstream gets `cancel`).
 * The upstream's `notifications/elicitation/complete` reaches the host that was asked, and no
 * other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { postStreaming, RawHttpHost } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, httpHost, relayConfig, toolJson, type RecordingHost } from "./support.js";

let mcpx: RunningMcpx & { url: URL };
let urlHost: RecordingHost;
let formHost: RecordingHost;

const COMPLETE = "notifications/elicitation/complete";

beforeAll(async () => {
  mcpx = await startMcpxHttp(relayConfig({ ask: askingStdio() }));
  urlHost = await httpHost(mcpx.url, {
    name: "url-host",
    capabilities: { elicitation: { form: {}, url: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" })),
  });
  formHost = await httpHost(mcpx.url, {
    name: "form-host",
    capabilities: { elicitation: {} },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} })),
  });
});
afterAll(async () => {
  await urlHost?.close();
  await formHost?.close();
  await mcpx?.close();
});

describe("URL-mode elicitation", () => {
  it("reaches a host that declared elicitation.url, with the upstream's id; completion follows to that host only", async () => {
    const result = await urlHost.client.callTool({ name: "ask__ask_url", arguments: { elicitationId: "login-1", complete: true } });
    expect(toolJson(result)).toEqual({ action: "accept" });

    const asked = urlHost.requests("elicitation/create");
    expect(asked).toHaveLength(1);
    expectValidToClient("2025-11-25", asked[0]);
    expect(asked[0]!.params).toMatchObject({
      mode: "url",
      elicitationId: "login-1",
      url: "https://example.com/connect?id=login-1",
      message: "[ask] Please sign in to continue",
    });

    const complete = await urlHost.waitFor((frame) => frame.method === COMPLETE);
    expect(complete.params).toEqual({ elicitationId: "login-1" });
    expectValidToClient("2025-11-25", complete);

    // A round trip of the other host after the notification was written: it heard nothing.
    await formHost.client.ping();
    expect(formHost.frames.filter((frame) => frame.method === COMPLETE || frame.method === "elicitation/create")).toEqual([]);
  });

  it("is not sent to a host that declared elicitation without url: the upstream gets cancel", async () => {
    const result = await formHost.client.callTool({ name: "ask__ask_url", arguments: { elicitationId: "login-2", complete: true } });
    expect(toolJson(result)).toEqual({ action: "cancel" });
    expect(formHost.requests()).toEqual([]);
    await mcpx.waitForLog(/the calling host cannot take this question.*elicitation\.url/);
    // Nor did the question (or its completion) wander to the host that could have taken it.
    expect(urlHost.frames.filter((frame) => JSON.stringify(frame).includes("login-2"))).toEqual([]);
  });
});

describe("URL-mode completion to an HTTP host without a GET stream", () => {
  it("travels on the stream of the call that asked, before its result", async () => {
    const host = new RawHttpHost(mcpx.url);
    try {
      await host.initialize("2025-11-25", { elicitation: { form: {}, url: {} } });
      const { stream } = await postStreaming(
        mcpx.url,
        { jsonrpc: "2.0", id: "call-1", method: "tools/call", params: { name: "ask__ask_url", arguments: { elicitationId: "login-2", complete: true } } },
        host.headers(),
      );
      const asked = await stream.waitFor((frame) => frame.method === "elicitation/create");
      await host.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept" } });
      const complete = await stream.waitFor((frame) => frame.method === COMPLETE);
      expect(complete.params).toEqual({ elicitationId: "login-2" });
      expectValidToClient("2025-11-25", complete);
      const result = await stream.waitFor((frame) => frame.id === "call-1");
      expect(JSON.stringify(result.result)).toContain("accept");
    } finally {
      host.close();
    }
  });
});
