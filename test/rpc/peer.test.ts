/**
 * The JSON-RPC peer both sides of mcpx use, over an in-memory channel pair: answers and errors,
 * timeouts (with a fake clock), held timeouts, cancellation both ways, progress by token, and
 * closing.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GatewayError, RpcError } from "../../src/protocol/errors.js";
import type { JsonObject, JsonRpcNotification } from "../../src/protocol/jsonrpc.js";
import { Peer, type PeerHandlers } from "../../src/rpc/peer.js";
import { channelPair, type MemoryChannel } from "../helpers/memory-channel.js";

function pair(serverHandlers: PeerHandlers, clientHandlers: PeerHandlers = {}): { client: Peer; server: Peer; wire: MemoryChannel } {
  const [clientSide, serverSide] = channelPair();
  return { client: new Peer(clientSide, clientHandlers), server: new Peer(serverSide, serverHandlers), wire: clientSide };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe("requests", () => {
  it("are answered with the handler's result, under increasing ids", async () => {
    const { client } = pair({ request: async ({ request }) => ({ echo: request.params ?? {} }) });
    expect(await client.request("a", { x: 1 })).toEqual({ echo: { x: 1 } });
    expect(await client.request("b", undefined)).toEqual({ echo: {} });
  });

  it("fail with the peer's error as an RpcError, code and message kept", async () => {
    const { client } = pair({ request: async () => Promise.reject(new RpcError(-32602, "Invalid params: no")) });
    const error = await client.request("a", {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: "Invalid params: no" });
  });

  it("a handler's unexpected error reaches the peer as -32603, not its text", async () => {
    const { client } = pair({ request: async () => Promise.reject(new Error("secret internals")) });
    const error = (await client.request("a", {}).catch((thrown: unknown) => thrown)) as RpcError;
    expect(error.code).toBe(-32603);
    expect(error.message).not.toContain("secret internals");
  });
});

describe("timeouts", () => {
  it("fail the request and tell the peer it was cancelled", async () => {
    vi.useFakeTimers();
    const seen: JsonRpcNotification[] = [];
    const { client } = pair({ request: () => new Promise(() => {}), notification: (notification) => seen.push(notification) });
    const answer = client.request("slow", {}, { timeoutMs: 1_000 }).catch((thrown: unknown) => thrown);
    await vi.advanceTimersByTimeAsync(999);
    expect(client.outstanding).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await answer) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "timed out after 1s" } }]);
  });

  it("are held while someone answers a question for the request, then start afresh", async () => {
    vi.useFakeTimers();
    let answer: ((result: JsonObject) => void) | undefined;
    const { client } = pair({ request: () => new Promise((resolve) => (answer = resolve)) });
    let id: string | number | undefined;
    const result = client.request("asks", {}, { timeoutMs: 1_000, onId: (sent) => (id = sent) });
    await vi.advanceTimersByTimeAsync(500);
    const release = client.holdTimeout(id!);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.outstanding).toBe(1);
    release();
    release(); // a second release changes nothing
    await vi.advanceTimersByTimeAsync(999);
    answer!({ done: true });
    expect(await result).toEqual({ done: true });
  });
});

describe("cancellation", () => {
  it("an aborted signal rejects the request and cancels it at the peer, whose handler sees its signal abort", async () => {
    let handlerSignal: AbortSignal | undefined;
    const { client } = pair({
      request: ({ signal }) => {
        handlerSignal = signal;
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const result = client.request("long", {}, { signal: controller.signal }).catch((thrown: unknown) => thrown);
    await flush();
    controller.abort();
    expect(await result).toBeInstanceOf(Error);
    await flush();
    expect(handlerSignal?.aborted).toBe(true);
  });
});

describe("progress", () => {
  it("goes to the request that owns the token; an unknown token to the notification handler", async () => {
    const seen: JsonRpcNotification[] = [];
    const { client, server } = pair(
      {
        request: async ({ request }) => {
          const token = (request.params?._meta as { progressToken: string }).progressToken;
          await server.notify("notifications/progress", { progressToken: token, progress: 1 });
          await server.notify("notifications/progress", { progressToken: "someone-else", progress: 2 });
          return {};
        },
      },
      { notification: (notification) => seen.push(notification) },
    );
    const progress: JsonObject[] = [];
    await client.request("work", { _meta: { progressToken: "t1" } }, { progressToken: "t1", onProgress: (params) => progress.push(params) });
    await flush();
    expect(progress).toEqual([{ progressToken: "t1", progress: 1 }]);
    expect(seen.map((notification) => notification.params)).toEqual([{ progressToken: "someone-else", progress: 2 }]);
  });
});

describe("closing", () => {
  it("fails what is waiting, refuses new requests, and is idempotent", async () => {
    const { client } = pair({ request: () => new Promise(() => {}) });
    const waiting = client.request("never", {}).catch((thrown: unknown) => thrown);
    await flush();
    await client.close(new GatewayError("CONNECTION_CLOSED", "bye"));
    await client.close();
    expect(await waiting).toMatchObject({ code: "CONNECTION_CLOSED" });
    await expect(client.request("after", {})).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(client.closed).toBe(true);
  });
});
