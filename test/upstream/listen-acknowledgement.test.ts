/**
 * A legacy host's resources/subscribe to a 2026-07-28 upstream becomes the upstream's
 * subscriptions/listen set, and is answered once the server acknowledges the new stream (issue
 * 13, item 13). Servers acknowledge with the listen request's id as a string (the conformance
 * repository's reference server does), or not at all: neither may hold the host's request until
 * it gives up. The update then reaches the host that subscribed, and unsubscribe works too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { deferred, stdioHost, type RecordingHost } from "../relay/support.js";

/** Well under mcpx's 30 s startup timeout, which bounded the wait for an acknowledgement before. */
const ANSWERED_WITHIN_MS = 8_000;

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

describe("a legacy host subscribes to a resource of a 2026-07-28 upstream", () => {
  let host: RecordingHost | undefined;
  afterEach(async () => {
    await host?.close();
  });

  const start = async (ack: "string" | "none"): Promise<RecordingHost> => {
    const config = writeConfig({ mcpServers: { raw: nodeServer("listen-ack-server.mjs", ["--ack", ack], { passthrough: true }) } });
    host = await stdioHost(config);
    return host;
  };

  it("the server acknowledges with the id as a string: answered at once, the update reaches the host, unsubscribe too", async () => {
    const { client } = await start("string");
    const updated = deferred<string>();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => updated.resolve(notification.params.uri));
    const subscribed = await timed(client.subscribeResource({ uri: "note://raw" }, { timeout: ANSWERED_WITHIN_MS }));
    expect(subscribed.value).toEqual({});
    expect(subscribed.ms).toBeLessThan(1_500); // acknowledged: not the 2 s allowed a server that never acknowledges
    await client.callTool({ name: "touch", arguments: {} });
    expect(await updated.promise).toBe("note://raw");
    const unsubscribed = await timed(client.unsubscribeResource({ uri: "note://raw" }, { timeout: ANSWERED_WITHIN_MS }));
    expect(unsubscribed.value).toEqual({});
  }, 30_000);

  it("the server never acknowledges: the host is still answered, within a few seconds", async () => {
    const { client } = await start("none");
    const subscribed = await timed(client.subscribeResource({ uri: "note://raw" }, { timeout: ANSWERED_WITHIN_MS }));
    expect(subscribed.value).toEqual({});
    const unsubscribed = await timed(client.unsubscribeResource({ uri: "note://raw" }, { timeout: ANSWERED_WITHIN_MS }));
    expect(unsubscribed.value).toEqual({});
  }, 30_000);
});
