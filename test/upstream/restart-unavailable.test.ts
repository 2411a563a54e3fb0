/**
 * An upstream that exits is restarting, not gone: behind a real mcpx and a real SDK 1.x host,
 * its tools stay listed and answer the documented unavailable error (-32000,
 * UPSTREAM_UNAVAILABLE) with when to try again; a restart that brings the same tools back sends
 * no list_changed, and one that brings different tools sends one.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, stdioServeParams, writeConfig } from "../helpers/mcpx.js";

interface Host {
  client: Client;
  notices: string[];
  log: () => string;
  /** Resolves once the log has `count` "upstream ready" lines. */
  readyCount: (count: number) => Promise<void>;
}

async function connect(toolsFile: string): Promise<Host> {
  const config = writeConfig({ mcpServers: { up: nodeServer("restarting-server.mjs") } });
  config.env.TOOLS_FILE = toolsFile;
  const transport = new StdioClientTransport({ ...stdioServeParams(config), stderr: "pipe" });
  let log = "";
  const waiters: Array<() => void> = [];
  transport.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString("utf8");
    for (const waiter of waiters.splice(0)) waiter();
  });
  const client = new Client({ name: "sdk-host", version: "1.0.0" });
  const notices: string[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    notices.push(notification.method);
  };
  await client.connect(transport);
  const readyCount = (count: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fewer than ${count} "upstream ready" in the log:\n${log}`)), 15_000);
      const check = (): void => {
        if ((log.match(/"msg":"upstream ready"/g) ?? []).length >= count) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { client, notices, log: () => log, readyCount };
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

async function callError(client: Client, name: string): Promise<McpError> {
  const error = await client.callTool({ name, arguments: {} }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("an upstream restarting after it exited", () => {
  let host: Host | undefined;
  afterEach(async () => host?.client.close());

  it("is unavailable with a retry hint, keeps its tools listed, and sends list_changed only when its tools changed", async () => {
    const dir = writeConfig({}).dir;
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(["same"]));
    host = await connect(toolsFile);
    const { client, notices } = host;
    await host.readyCount(1);
    const listed = await toolNames(client);
    expect(listed).toContain("up__same");
    notices.length = 0;

    // It exits mid-call: that call fails (it went away); mcpx restarts it in about a second.
    expect((await callError(client, "up__exit")).code).toBe(-32000);
    const during = await callError(client, "up__hello");
    expect(during.code).toBe(-32000);
    expect(during.message).toMatch(/"up" is restarting.*try again in about 1 s/);
    const data = during.data as { code: string; server: string; retryAfterMs: number };
    expect(data).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", server: "up" });
    expect(data.retryAfterMs).toBeGreaterThan(0);
    expect(data.retryAfterMs).toBeLessThanOrEqual(1_000);
    expect(await toolNames(client)).toEqual(listed);

    // Back with the same tools: calls work, and no host heard of a change (an answer on the
    // same pipe after the restart means any notification sent at the restart came before it).
    await host.readyCount(2);
    expect((await client.callTool({ name: "up__hello", arguments: {} })).content).toEqual([{ type: "text", text: "hello from hello" }]);
    expect(notices.filter((method) => method.endsWith("/list_changed"))).toEqual([]);

    // A restart that brings different tools is a change: one tools/list_changed.
    writeFileSync(toolsFile, JSON.stringify(["other"]));
    expect((await callError(client, "up__exit")).code).toBe(-32000);
    await host.readyCount(3);
    await client.callTool({ name: "up__hello", arguments: {} });
    expect(notices.filter((method) => method.endsWith("/list_changed"))).toEqual(["notifications/tools/list_changed"]);
    const now = await toolNames(client);
    expect(now).toContain("up__other");
    expect(now).not.toContain("up__same");
  });
});
