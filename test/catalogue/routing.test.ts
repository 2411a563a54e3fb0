import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { EventStream, RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

describe("completion/complete", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("goes to the upstream that owns the prompt, under the prompt's own name", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { conf: nodeServer("conformance-server.mjs", ["--stdio"]) } }));
    await host.initialize();
    const answer = await host.request(1, "completion/complete", {
      ref: { type: "ref/prompt", name: "conf__test_prompt_with_arguments" },
      argument: { name: "arg1", value: "te" },
    });
    expectValidToClient("2025-11-25", answer, "completion/complete");
    expect((answer.result as { completion: { values: string[] } }).completion.values).toEqual(["test", "testing", "test-value"]);

    const unknown = await host.request(2, "completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "te" },
    });
    expect((unknown.error as { code: number }).code).toBe(-32602);
  });
});

describe("resource subscriptions", () => {
  let mcpx: RunningMcpx & { url: URL };
  beforeAll(async () => {
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs") } }));
  });
  afterAll(async () => mcpx?.close());

  async function connect(): Promise<{ host: RawHttpHost; stream: EventStream }> {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize();
    const stream = await host.openStream();
    if (!(stream instanceof EventStream)) throw new Error(`GET stream refused: HTTP ${stream.status}`);
    return { host, stream };
  }
  const updates = (stream: EventStream): string[] =>
    stream.messages.filter((frame: Frame) => frame.method === "notifications/resources/updated").map((frame) => (frame.params as { uri: string }).uri);

  it("reach only the subscribed hosts, and the upstream is unsubscribed once no host wants a resource", async () => {
    const a = await connect();
    const b = await connect();
    const subscriptions = async (id: number): Promise<string[]> =>
      JSON.parse(firstText(await a.host.request(id, "tools/call", { name: "changing__subscriptions", arguments: {} }))) as string[];
    const touchAll = async (base: number): Promise<void> => {
      for (const [index, uri] of ["memo://a", "memo://b", "memo://c"].entries()) {
        await a.host.request(base + index, "tools/call", { name: "changing__touch", arguments: { uri } });
      }
    };
    // Both hosts hold memo://c, touched last: once its update is in, a misdelivered earlier one would be too.
    const settled = (stream: EventStream, count: number) => stream.waitFor(() => updates(stream).filter((uri) => uri === "memo://c").length === count);
    try {
      for (const [id, host, uri] of [
        [1, a, "memo://a"],
        [2, a, "memo://c"],
        [3, b, "memo://b"],
        [4, b, "memo://c"],
      ] as const) {
        expect((await host.host.request(id, "resources/subscribe", { uri })).result).toEqual({});
      }
      expect(await subscriptions(5)).toEqual(["memo://a", "memo://b", "memo://c"]);

      await touchAll(10);
      await settled(a.stream, 1);
      await settled(b.stream, 1);
      expect(updates(a.stream)).toEqual(["memo://a", "memo://c"]);
      expect(updates(b.stream)).toEqual(["memo://b", "memo://c"]);
      for (const frame of [...a.stream.messages, ...b.stream.messages]) expectValidToClient("2025-11-25", frame);

      // memo://a has no other subscriber, so the upstream hears the unsubscribe; memo://c is still B's.
      expect((await a.host.request(20, "resources/unsubscribe", { uri: "memo://a" })).result).toEqual({});
      expect((await a.host.request(21, "resources/unsubscribe", { uri: "memo://c" })).result).toEqual({});
      expect(await subscriptions(22)).toEqual(["memo://b", "memo://c"]);
      expect((await a.host.request(23, "resources/subscribe", { uri: "memo://c" })).result).toEqual({});

      await touchAll(30);
      await settled(a.stream, 2);
      await settled(b.stream, 2);
      expect(updates(a.stream)).toEqual(["memo://a", "memo://c", "memo://c"]);
      expect(updates(b.stream)).toEqual(["memo://b", "memo://c", "memo://b", "memo://c"]);
    } finally {
      a.host.close();
      b.host.close();
    }
  });
});
