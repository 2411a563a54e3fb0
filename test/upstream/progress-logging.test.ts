import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

const conformance = () => writeConfig({ mcpServers: { conf: nodeServer("conformance-server.mjs", ["--stdio"]) } });
const progressOf = (token: string) => (frame: Frame) =>
  frame.method === "notifications/progress" && (frame.params as { progressToken?: unknown }).progressToken === token;

describe("progress over stdio", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("reaches the host under the host's own progress token, before the answer", async () => {
    host = new RawStdioHost(conformance());
    await host.initialize();
    const answer = await host.request(1, "tools/call", {
      name: "conf__test_tool_with_progress",
      arguments: {},
      _meta: { progressToken: "tok-1" },
    });
    const progress = host.frames.filter(progressOf("tok-1"));
    expect(progress.map((frame) => (frame.params as { progress: number }).progress)).toEqual([0, 50, 100]);
    for (const frame of progress) {
      expectValidToClient("2025-11-25", frame);
      expect(host.frames.indexOf(frame)).toBeLessThan(host.frames.indexOf(answer));
    }
    // The upstream saw a token of mcpx's making, not the host's.
    const upstreamToken = firstText(answer).replace("Progress reported to token ", "");
    expect(upstreamToken).not.toBe("tok-1");
    expect(upstreamToken).not.toBe("undefined");
    expect(host.frames.some((frame) => frame.method === "notifications/progress" && !progressOf("tok-1")(frame))).toBe(false);
  });
});

describe("logging", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("logging/setLevel answers {} and the upstream's log messages reach the host, filtered by level", async () => {
    host = new RawStdioHost(conformance());
    await host.initialize();
    const set = await host.request(1, "logging/setLevel", { level: "info" });
    expect(set.result).toEqual({});
    const before = host.frames.length;
    const answer = await host.request(2, "tools/call", { name: "conf__test_tool_with_logging", arguments: {} });
    const during = host.frames.slice(before, host.frames.indexOf(answer));
    const logs = during.filter((frame) => frame.method === "notifications/message");
    expect(logs.map((frame) => (frame.params as { data: unknown }).data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    for (const frame of logs) {
      expect(frame.params).toMatchObject({ level: "info", logger: "conf/conformance" });
      expectValidToClient("2025-11-25", frame);
    }

    expect((await host.request(3, "logging/setLevel", { level: "error" })).result).toEqual({});
    const quietFrom = host.frames.length;
    const quiet = await host.request(4, "tools/call", { name: "conf__test_tool_with_logging", arguments: {} });
    const quietFrames = host.frames.slice(quietFrom, host.frames.indexOf(quiet));
    expect(quietFrames.filter((frame) => frame.method === "notifications/message")).toEqual([]);
  });

  it("rejects an unknown level with -32602", async () => {
    host = new RawStdioHost(conformance());
    await host.initialize();
    const answer = await host.request(1, "logging/setLevel", { level: "loud" });
    expect((answer.error as { code: number }).code).toBe(-32602);
  });
});

describe("progress over HTTP", () => {
  let mcpx: RunningMcpx & { url: URL };
  beforeAll(async () => {
    mcpx = await startMcpxHttp(conformance());
  });
  afterAll(async () => mcpx?.close());

  it("travels on the call's own response stream", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize();
    const answer = await host.request(1, "tools/call", {
      name: "conf__test_tool_with_progress",
      arguments: {},
      _meta: { progressToken: 7 },
    });
    expect(answer.reply.contentType).toContain("text/event-stream");
    const progress = answer.reply.messages.filter(
      (frame) => frame.method === "notifications/progress" && (frame.params as { progressToken?: unknown }).progressToken === 7,
    );
    expect(progress).toHaveLength(3);
    for (const frame of progress) expectValidToClient("2025-11-25", frame);
  });
});
