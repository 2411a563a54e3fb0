/**
 * Hot reload of `mcpx serve --http`: editing the config file adds a server while a host's
 * question is pending; the host hears `tools/list_changed` and lists the new server's tools,
 * the question is still answered (from the CLI) and the host's call completes. A file that
 * does not load keeps the config in force; removing the server takes its tools away;
 * `mcpx reload` asks the serving process to read the file again.
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio, httpHost, type Frame, type RecordingHost } from "../relay/support.js";
import { elicit, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let host: RecordingHost;
const SERVERS = { ask: askingStdio() };

beforeAll(async () => {
  config = writeConfig({ mcpServers: SERVERS });
  mcpx = await startMcpxHttp(config);
  host = await httpHost(mcpx.url);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await mcpx?.close();
});

function rewrite(document: object): void {
  writeFileSync(config.file, JSON.stringify(document));
}

async function toolNames(): Promise<string[]> {
  return (await host.client.listTools()).tools.map((tool) => tool.name);
}

function listChangedAfter(count: number): Promise<Frame> {
  return host.waitFor((frame) => frame.method === "notifications/tools/list_changed" && host.frames.indexOf(frame) >= count, 15_000);
}

describe("hot reload", () => {
  it("adds a server while a question is pending; the question is still answered and its call completes", async () => {
    // A host that takes no questions: the question waits in the store for a person.
    const call = host.client.callTool({ name: "ask__ask_form", arguments: {} });
    const question = await waitForQuestion(config, pendingFrom("ask"), 20_000);

    const before = host.frames.length;
    rewrite({ mcpServers: { ...SERVERS, echo: nodeServer("faulty-server.mjs") } });
    await listChangedAfter(before);
    for (let tries = 0; !(await toolNames()).includes("echo__echo_env") && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await toolNames()).toEqual(expect.arrayContaining(["ask__ask_form", "echo__echo_env"]));

    expect((await elicit(config, "decline", question.id)).code).toBe(0);
    const result = (await call) as { content: Array<{ text: string }> };
    expect(result.content[0]?.text).toContain("decline");
    expect(mcpx.stderr()).toMatch(/config reloaded/);
  }, 60_000);

  it("keeps the config in force when the file does not load, and takes a removed server's tools away", async () => {
    rewrite({ mcpServers: { ...SERVERS, echo: nodeServer("faulty-server.mjs") }, elicitaton: {} });
    await mcpx.waitForLog(/the config file does not load; the config in force stays/);
    expect(await toolNames()).toContain("echo__echo_env");

    const before = host.frames.length;
    rewrite({ mcpServers: SERVERS });
    await listChangedAfter(before);
    expect(await toolNames()).not.toContain("echo__echo_env");
  }, 60_000);

  it("mcpx reload asks the serving process to read the file again", async () => {
    const reloads = (mcpx.stderr().match(/config reloaded/g) ?? []).length;
    const run = await runMcpx(["reload", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/asked pid \d+ to read/);
    for (let tries = 0; (mcpx.stderr().match(/config reloaded/g) ?? []).length <= reloads; tries++) {
      expect(tries).toBeLessThan(75);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);
});
