/**
 * The audit trail: every tool call (whose host session and client, the tool, its arguments
 * with secrets redacted, how it ended: ok, refused by a person, an isError result) and every
 * question (which server and tool asked, who answered and the decision, never the content)
 * is in the store, and `mcpx audit` prints it, filtered, as text or JSON Lines.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { stdioHost, type RecordingHost } from "../relay/support.js";

const FILESYSTEM = join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

let config: TempConfig;
let dir: string;
let host: (RecordingHost & { log(): string }) | undefined;

interface Entry {
  kind: string;
  server: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  outcome: string;
  hostSession?: string;
  client?: string;
  answeredBy?: string;
  durationMs?: number;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpx-audit-"));
  config = writeConfig({
    mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, dir] } },
    approvals: [{ match: { server: "fs", tool: "write_file" } }],
  });
  const answers = [{ action: "decline" }, { action: "accept" }];
  host = await stdioHost(config, {
    name: "audited-host",
    capabilities: { elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => answers.shift() ?? { action: "cancel" }),
  });
  const write = { name: "fs__write_file", arguments: { path: join(dir, "a.txt"), content: "hello", api_key: "sk-secret-123" } };
  await host.client.callTool(write); // declined
  await host.client.callTool(write); // accepted, runs
  await host.client.callTool({ name: "fs__read_text_file", arguments: { path: join(dir, "missing.txt") } }); // an isError result
  await host.close();
  host = undefined;
}, 60_000);
afterAll(async () => {
  await host?.close();
});

async function entries(...args: string[]): Promise<Entry[]> {
  const run = await runMcpx(["audit", "--json", ...args], config);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);
}

describe("the audit trail", () => {
  it("has each call, whose, with its outcome, secrets redacted; and each question with who answered", async () => {
    const all = await entries();
    const calls = all.filter((entry) => entry.kind === "call");
    expect(calls.map((entry) => [entry.tool, entry.outcome])).toEqual([
      ["write_file", "refused"],
      ["write_file", "ok"],
      ["read_text_file", "error"],
    ]);
    for (const call of calls) {
      expect(call.hostSession).toBeTruthy();
      expect(call.client).toBe("audited-host 1.0.0");
      expect(call.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(calls[1]!.arguments).toEqual({ path: join(dir, "a.txt"), content: "hello", api_key: "[redacted]" });
    const questions = all.filter((entry) => entry.kind === "question");
    expect(questions.map((entry) => [entry.tool, entry.outcome])).toEqual([
      ["write_file", "decline"],
      ["write_file", "accept"],
    ]);
    expect(questions[0]!.answeredBy).toBe(`host:${calls[0]!.hostSession}`);
    const raw = await runMcpx(["audit", "--json"], config);
    expect(raw.stdout).not.toContain("sk-secret-123");
  });

  it("filters by tool, server and time, and prints a line an entry", async () => {
    expect((await entries("--tool", "read_text_file")).map((entry) => entry.outcome)).toEqual(["error"]);
    expect(await entries("--server", "elsewhere")).toEqual([]);
    expect(await entries("--since", "2999-01-01T00:00:00Z")).toEqual([]);
    expect((await entries("--since", "1h")).length).toBe(5);
    const text = await runMcpx(["audit", "--tool", "write_file"], config);
    expect(text.stdout.trim().split("\n")).toHaveLength(4);
    expect(text.stdout).toMatch(/call {6}fs\.write_file .*refused in \d+ ms {2}by session \S+ \(audited-host 1\.0\.0\)/);
    const bad = await runMcpx(["audit", "--since", "yesterday"], config);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("since must be a duration such as 30m");
  });
});
