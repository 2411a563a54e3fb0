/**
 * Profiles (config `profiles`, docs/operations.md): one `mcpx serve --http` in front of the
 * official filesystem server and a server with prompts and resources, serving every tool on
 * `/mcp` and smaller surfaces on `/mcp/readonly` (the filesystem's readers only, one renamed
 * with an argument fixed) and `/mcp/finder` (discovery mode, the writers denied). A tool outside
 * a profile is unknown there by every name and on every path (tools/call, mcpx__call,
 * mcpx__search, mcpx__describe, mcpx__exec, a 2026-07-28 POST); prompts and resources follow the
 * profile's servers; sessions are the path's own; a reload tells only the hosts whose view
 * changed. `mcpx serve --profile` serves one profile on stdio.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, ROOT, startMcpxHttp, stdioServeParams, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { post, postModernToolCall } from "../helpers/raw-http.js";
import { runMcpx, textOf } from "../helpers/upstreams.js";
import { httpHost, type RecordingHost } from "../relay/support.js";

const FILESYSTEM = join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
const WRITERS = ["fs__write_file", "fs__edit_file", "fs__move_file", "fs__create_directory"];

let dir: string;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
type Host = Awaited<ReturnType<typeof httpHost>>;
let whole: Host;
let readonly: Host;
let finder: Host;

function document(readonlyAllow: string[]): object {
  return {
    mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, dir] }, rich: nodeServer("rich-server.mjs") },
    profiles: {
      readonly: {
        servers: ["fs"],
        tools: { allow: readonlyAllow },
        overrides: { fs__read_text_file: { name: "read", description: "Read the first line of a team file", arguments: { head: 1 } } },
      },
      finder: { servers: ["fs"], tools: { deny: WRITERS }, expose: "discovery" },
    },
  };
}

const on = (profile: string): URL => new URL(`${mcpx.url.href}/${profile}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpx-profiles-"));
  writeFileSync(join(dir, "notes.txt"), "first line\nsecond line\n");
  config = writeConfig(document(["fs__read_*", "fs__list_*"]));
  mcpx = await startMcpxHttp(config);
  whole = await httpHost(mcpx.url);
  readonly = await httpHost(on("readonly"));
  finder = await httpHost(on("finder"));
}, 60_000);

afterAll(async () => {
  for (const host of [whole, readonly, finder]) await host?.close().catch(() => {});
  await mcpx?.close();
});

const names = async (host: RecordingHost): Promise<string[]> => (await host.client.listTools()).tools.map((tool) => tool.name);
const call = (host: RecordingHost, name: string, args: Record<string, unknown>) => host.client.callTool({ name, arguments: args });

describe("a profile's tools", () => {
  it("lists only the profile's tools, renamed and described as it says, the fixed argument left out of the schema", async () => {
    expect(await names(whole)).toEqual(expect.arrayContaining(["fs__write_file", "fs__read_text_file", "rich__rich_tool"]));
    const { tools } = await readonly.client.listTools();
    const listed = tools.map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(["read", "fs__read_file", "fs__read_multiple_files", "fs__list_directory", "mcpx__exec"]));
    for (const name of [...WRITERS, "fs__read_text_file", "fs__search_files", "rich__rich_tool"]) expect(listed).not.toContain(name);
    const read = tools.find((tool) => tool.name === "read")!;
    expect(read.description).toBe("Read the first line of a team file");
    expect(Object.keys(read.inputSchema.properties ?? {})).toEqual(["path", "tail"]);
    // mcpx__exec names the profile's servers only.
    const exec = tools.find((tool) => tool.name === "mcpx__exec")!;
    expect(exec.description).toContain("(fs)");
  });

  it("refuses a tool outside the profile by its own name and by the renamed tool's old name; the renamed one runs with its fixed argument", async () => {
    for (const name of ["fs__write_file", "fs__read_text_file", "rich__rich_tool"]) {
      await expect(call(readonly, name, { path: join(dir, "x.txt"), content: "no" })).rejects.toThrow(/unknown tool/);
    }
    const result = await call(readonly, "read", { path: join(dir, "notes.txt") });
    expect(textOf(result)).toBe("first line");
    await expect(call(readonly, "read", { path: join(dir, "notes.txt"), head: 2 })).rejects.toThrow(
      /argument "head" of fs.read_text_file is fixed by this profile/,
    );
    // The same value is no change: it passes.
    expect(textOf(await call(readonly, "read", { path: join(dir, "notes.txt"), head: 1 }))).toBe("first line");
    // On /mcp, the same tool is the server's own, argument and all.
    expect(textOf(await call(whole, "fs__read_text_file", { path: join(dir, "notes.txt"), head: 2 }))).toBe("first line\nsecond line");
  });

  it("gives a script the profile's tools only, with the fixed arguments", async () => {
    const script = async (code: string) => textOf(await call(readonly, "mcpx__exec", { code }));
    expect(await script(`return typeof fs.write_file + " " + typeof fs.read_text_file + " " + typeof rich`)).toBe(`returned: "undefined function undefined"`);
    // read_text_file has an outputSchema: a script gets its structuredContent.
    expect(await script(`return (await fs.read_text_file({ path: ${JSON.stringify(join(dir, "notes.txt"))} })).content`)).toBe(`returned: "first line"`);
  });

  it("in discovery mode: search, describe, call and scripts know none of the tools it leaves out", async () => {
    expect(await names(finder)).toEqual(expect.arrayContaining(["mcpx__search", "mcpx__call", "mcpx__describe", "mcpx__exec"]));
    const found = JSON.parse(textOf(await call(finder, "mcpx__search", { query: "write a file, edit a file, move a file", limit: 20 }))) as Array<{
      name: string;
    }>;
    expect(found.length).toBeGreaterThan(0);
    for (const hit of found) expect(WRITERS).not.toContain(hit.name);
    expect(found.every((hit) => hit.name.startsWith("fs__"))).toBe(true);
    const described = await call(finder, "mcpx__describe", { names: ["fs__write_file"] });
    expect(described.isError).toBe(true);
    expect(textOf(described)).toContain('no tool named "fs__write_file"');
    const called = await call(finder, "mcpx__call", { name: "fs__write_file", arguments: { path: join(dir, "y.txt"), content: "no" } });
    expect(called.isError).toBe(true);
    expect(textOf(called)).toContain('no tool named "fs__write_file"');
    const servers = JSON.parse(textOf(await call(finder, "mcpx__servers", {}))) as Array<{ server: string }>;
    expect(servers.map((entry) => entry.server)).toEqual(["fs"]);
    const scripted = await call(finder, "mcpx__exec", { code: `await fs.write_file({ path: ${JSON.stringify(join(dir, "z.txt"))}, content: "no" })` });
    expect(scripted.isError).toBe(true);
    // A direct call by the tool's exposed name is as unknown.
    await expect(call(finder, "fs__write_file", { path: join(dir, "y.txt"), content: "no" })).rejects.toThrow(/unknown tool/);
    const { existsSync } = await import("node:fs");
    for (const file of ["x.txt", "y.txt", "z.txt"]) expect(existsSync(join(dir, file))).toBe(false);
  });

  it("serves a 2026-07-28 host on the profile's path the same", async () => {
    const refused = await postModernToolCall(on("readonly"), 1, { name: "fs__write_file", arguments: { path: join(dir, "m.txt"), content: "no" } });
    expect(JSON.stringify(refused.messages)).toContain('unknown tool \\"fs__write_file\\"');
    const read = await postModernToolCall(on("readonly"), 2, { name: "read", arguments: { path: join(dir, "notes.txt") } });
    const result = read.messages[0]?.result as { content: Array<{ text: string }> } | undefined;
    expect(result?.content[0]?.text).toBe("first line");
  });
});

describe("a profile's prompts, resources and sessions", () => {
  it("serves the prompts and resources of its servers only", async () => {
    expect((await whole.client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain("rich__rich_prompt");
    expect((await readonly.client.listPrompts()).prompts).toEqual([]);
    const [resource] = (await whole.client.listResources()).resources;
    expect(resource).toBeDefined();
    expect((await readonly.client.listResources()).resources).toEqual([]);
    await expect(readonly.client.readResource({ uri: resource!.uri })).rejects.toThrow(/Resource not found/);
    await expect(readonly.client.getPrompt({ name: "rich__rich_prompt" })).rejects.toThrow(/unknown prompt/);
  });

  it("keeps sessions to their path, and an unknown profile is not found", async () => {
    const sessionId = readonly.transport.sessionId!;
    const ping = { jsonrpc: "2.0", id: 9, method: "ping" };
    expect((await post(on("readonly"), ping, { "mcp-session-id": sessionId })).status).toBe(200);
    expect((await post(mcpx.url, ping, { "mcp-session-id": sessionId })).status).toBe(404);
    expect((await post(on("finder"), ping, { "mcp-session-id": sessionId })).status).toBe(404);
    const unknown = await post(on("nope"), {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain("/mcp/nope is not a profile of this mcpx");
  });
});

describe("a profile and hot reload", () => {
  it("tells only the hosts whose view changed", async () => {
    const marks = [whole, readonly, finder].map((host) => host.frames.length);
    const changedSince = (host: RecordingHost, mark: number) => host.frames.slice(mark).some((frame) => frame.method === "notifications/tools/list_changed");
    writeFileSync(config.file, JSON.stringify(document(["fs__read_*", "fs__list_*", "fs__search_files"])));
    await readonly.waitFor((frame) => frame.method === "notifications/tools/list_changed" && readonly.frames.indexOf(frame) >= marks[1]!, 15_000);
    expect(await names(readonly)).toContain("fs__search_files");
    // Give the others time to hear anything they would.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(changedSince(whole, marks[0]!)).toBe(false);
    expect(changedSince(finder, marks[2]!)).toBe(false);
  });

  it("a profile the file no longer has is not found, and its hosts see nothing", async () => {
    const mark = mcpx.stderr().length;
    const next = document(["fs__read_*"]) as { profiles: Record<string, unknown> };
    delete next.profiles.finder;
    writeFileSync(config.file, JSON.stringify(next));
    for (let tries = 0; !mcpx.stderr().slice(mark).includes("config reloaded") && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const ping = { jsonrpc: "2.0", id: 9, method: "ping" };
    const sessionId = finder.transport.sessionId!;
    expect((await post(on("finder"), ping, { "mcp-session-id": sessionId })).status).toBe(404);
  });
});

describe("mcpx serve --profile", () => {
  it("serves one profile on stdio, and refuses one the config does not have", async () => {
    const client = new Client({ name: "profile-host", version: "1.0.0" });
    const params = stdioServeParams(config);
    await client.connect(new StdioClientTransport({ ...params, args: [...params.args, "--profile", "readonly"], stderr: "ignore" }));
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain("read");
      expect(listed).not.toContain("fs__write_file");
      await expect(client.callTool({ name: "fs__write_file", arguments: { path: join(dir, "s.txt"), content: "no" } })).rejects.toThrow(/unknown tool/);
    } finally {
      await client.close();
    }
    // Over HTTP the profile is /mcp itself, and no other profile is reachable (finder is in the file again).
    writeFileSync(config.file, JSON.stringify(document(["fs__read_*", "fs__list_*"])));
    const served = await startMcpxHttp(config, ["--profile", "readonly"]);
    try {
      const host = await httpHost(served.url);
      expect(await names(host)).toContain("read");
      expect(await names(host)).not.toContain("fs__write_file");
      await host.close();
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      };
      expect((await post(new URL(`${served.url.href}/readonly`), initialize)).status).toBe(200);
      expect((await post(new URL(`${served.url.href}/finder`), initialize)).status).toBe(404);
    } finally {
      await served.close();
    }
    const refused = await runMcpx(["serve", "--profile", "nope", "--config", config.file], config);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has no profile "nope" (it has "readonly", "finder")');
  }, 60_000);
});

describe("a profile's capabilities", () => {
  it("declares tasks only when a server it serves offers them", async () => {
    const tasksConfig = writeConfig({
      mcpServers: { jobs: nodeServer("tasks-server.mjs", ["--stdio"]), fs: { command: process.execPath, args: [FILESYSTEM, dir] } },
      profiles: { files: { servers: ["fs"] }, jobs: { servers: ["jobs"] } },
    });
    const served = await startMcpxHttp(tasksConfig);
    try {
      const tasksOf = async (path: string) => {
        const host = await httpHost(new URL(`${served.url.href}${path}`), { capabilities: { tasks: {} } });
        const declared = host.client.getServerCapabilities()?.tasks;
        await host.close();
        return declared;
      };
      expect(await tasksOf("")).toBeDefined();
      expect(await tasksOf("/jobs")).toBeDefined();
      expect(await tasksOf("/files")).toBeUndefined();
    } finally {
      await served.close();
    }
  }, 60_000);
});
