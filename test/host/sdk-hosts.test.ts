/**
 * Real MCP hosts built with the official SDKs connect to mcpx and use it: SDK 1.x and 2.x clients
 * over Streamable HTTP and over stdio. The SDK clients validate what they receive (including a
 * tool's structured content against its output schema), so these also check mcpx's answers.
 */
import type { Stream } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { nodeServer, startMcpxHttp, stdioServeParams, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";

/** What both SDK generations' clients offer that these tests use. */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string; title?: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  getServerVersion(): { name: string; version: string } | undefined;
  close(): Promise<void>;
}

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
const clients: SdkClient[] = [];

beforeAll(async () => {
  config = writeConfig({ mcpServers: { rich: nodeServer("rich-server.mjs"), gate: nodeServer("gate-server.mjs") } });
  mcpx = await startMcpxHttp(config);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await mcpx?.close();
});

/** List, call a rich tool (structured content checked by the SDK) and a plain one, read a resource. */
async function useGateway(client: SdkClient): Promise<void> {
  clients.push(client);
  expect(client.getServerVersion()?.name).toBe("mcpx");
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["rich__rich_tool", "rich__rich_notify", "gate__open", "gate__wait"]));
  expect(tools.find((tool) => tool.name === "rich__rich_tool")?.title).toBe("Rich Tool");

  const rich = (await client.callTool({ name: "rich__rich_tool", arguments: {} })) as {
    structuredContent?: unknown;
    content: Array<{ type: string }>;
  };
  expect(rich.structuredContent).toEqual({ answer: 42 });
  expect(rich.content.map((block) => block.type)).toEqual(["text", "image", "audio", "resource_link", "resource"]);

  const opened = (await client.callTool({ name: "gate__open", arguments: {} })) as { content: Array<{ text?: string }> };
  expect(opened.content[0]?.text).toBe("opened");

  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toContain("rich__rich_prompt");
  const { contents } = await client.readResource({ uri: "rich://doc/readme" });
  expect(contents).toHaveLength(1);
}

describe("SDK hosts over Streamable HTTP", () => {
  it("an SDK 1.x Client", async () => {
    const client = new Client1({ name: "sdk1-http-host", version: "1.0.0" });
    await client.connect(new Http1(mcpx.url));
    await useGateway(client as unknown as SdkClient);
  });

  it("an SDK 2.x Client (@modelcontextprotocol/client)", async () => {
    const client = new Client2({ name: "sdk2-http-host", version: "1.0.0" });
    await client.connect(new Http2(mcpx.url));
    await useGateway(client as unknown as SdkClient);
  });
});

/** Run `use` with mcpx's log attached to any failure (stdio transports hide the child's stderr). */
async function withLog(transport: { stderr: Stream | null }, use: () => Promise<void>): Promise<void> {
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  try {
    await use();
  } catch (error) {
    throw new Error(`${String(error)}\nmcpx log:\n${log.slice(-3000)}`);
  }
}

describe("SDK hosts over stdio (mcpx serve)", () => {
  it("an SDK 1.x Client with StdioClientTransport", async () => {
    const client = new Client1({ name: "sdk1-stdio-host", version: "1.0.0" });
    const transport = new Stdio1({ ...stdioServeParams(config), stderr: "pipe" });
    await withLog(transport, async () => {
      await client.connect(transport);
      await useGateway(client as unknown as SdkClient);
    });
  });

  it("an SDK 2.x Client with its StdioClientTransport", async () => {
    const client = new Client2({ name: "sdk2-stdio-host", version: "1.0.0" });
    const transport = new Stdio2({ ...stdioServeParams(config), stderr: "pipe" });
    await withLog(transport, async () => {
      await client.connect(transport);
      await useGateway(client as unknown as SdkClient);
    });
  });
});
