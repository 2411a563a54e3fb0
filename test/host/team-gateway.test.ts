/**
 * Issue 18's "Done when", as far as approvals, the audit trail, hot reload and profiles go: a
 * team runs one `mcpx serve --http` for several agents. Agent A (on `/mcp`) deletes a booking:
 * the call waits for a person's consent on the page (headless Chromium); meanwhile the config
 * is edited to add a server, agent A hears list_changed, and the person's answer still goes
 * through and the booking is deleted. A second delete nobody answers is refused at expiry.
 * Agent B, on `/mcp/readonly`, cannot call a write tool by any name. `mcpx audit` shows who
 * called what and who answered which question.
 */
import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx, textOf } from "../helpers/upstreams.js";
import { httpHost } from "../relay/support.js";

const chromiumHere = haveChromium("test/host/team-gateway.test.ts");

/** Deleting booking 7 is given 3 s (nobody answers it); any other delete a minute. */
const APPROVALS = [
  { match: { server: "desk", tool: "delete_*", arguments: { id: 7 } }, ttlSeconds: 3, reason: "deletes a booking" },
  { match: { server: "desk", tool: "delete_*" }, ttlSeconds: 60, reason: "deletes a booking" },
];

function document(servers: Record<string, object>): object {
  return {
    mcpServers: servers,
    approvals: APPROVALS,
    profiles: { readonly: { tools: { allow: ["desk__list_*"] }, expose: "discovery", pinned: ["desk__list_bookings"] } },
  };
}

type Host = Awaited<ReturnType<typeof httpHost>>;
interface AuditLine {
  kind: string;
  server: string;
  tool?: string;
  arguments?: unknown;
  outcome: string;
  hostSession?: string;
  profile?: string;
  client?: string;
  answeredBy?: string;
  questionId?: string;
}

(chromiumHere ? describe : describe.skip)("one mcpx serve --http for a team of agents", () => {
  let config: TempConfig;
  let mcpx: RunningMcpx & { url: URL };
  let agentA: Host;
  let agentB: Host;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    config = writeConfig(document({ desk: nodeServer("desk-server.mjs") }));
    mcpx = await startMcpxHttp(config);
    // Neither agent takes questions: consent is a person's, on the page.
    agentA = await httpHost(mcpx.url, { name: "agent-a" });
    agentB = await httpHost(new URL(`${mcpx.url.href}/readonly`), { name: "agent-b" });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(/questions at (\S+)/.exec(mcpx.stderr())![1]!);
    await page.locator("#status.live").waitFor({ timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const host of [agentA, agentB]) await host?.close().catch(() => {});
    await mcpx?.close();
  });

  const consentCard = (id: number) => page.locator("article", { has: page.locator("h2", { hasText: `Allow desk.delete_booking {"id":${id}}?` }) });

  it("holds a delete for a person's consent on the page; a config edit meanwhile adds a server, and the answer still goes through", async () => {
    const deleting = agentA.client.callTool({ name: "desk__delete_booking", arguments: { id: 42 } });
    const card = consentCard(42);
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator("h2").textContent()).toContain("(deletes a booking)");

    const marks = { a: agentA.frames.length, b: agentB.frames.length };
    writeFileSync(config.file, JSON.stringify(document({ desk: nodeServer("desk-server.mjs"), rich: nodeServer("rich-server.mjs") })));
    await agentA.waitFor((frame) => frame.method === "notifications/tools/list_changed" && agentA.frames.indexOf(frame) >= marks.a, 20_000);
    expect((await agentA.client.listTools()).tools.map((tool) => tool.name)).toContain("rich__rich_tool");
    // The question outlived the reload: still on the page, still waiting.
    expect(await card.isVisible()).toBe(true);

    await card.getByRole("button", { name: "Accept" }).click();
    expect(textOf(await deleting)).toBe("deleted 42");
    // Agent B's view (desk's readers) did not change: it heard nothing.
    expect(agentB.frames.slice(marks.b).some((frame) => frame.method === "notifications/tools/list_changed")).toBe(false);
  }, 60_000);

  it("refuses a delete nobody answers once its question expires", async () => {
    const deleting = agentA.client.callTool({ name: "desk__delete_booking", arguments: { id: 7 } });
    await consentCard(7).waitFor({ timeout: 15_000 });
    const result = await deleting;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "desk.delete_booking did not run: nobody allowed it in time (it was cancelled or its question expired). mcpx asks a person before this call (deletes a booking).",
    );
    await consentCard(7).waitFor({ state: "detached", timeout: 10_000 });
  }, 30_000);

  it("keeps an agent on /mcp/readonly from every write tool, by any name", async () => {
    const listed = (await agentB.client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain("desk__list_bookings");
    for (const name of ["desk__delete_booking", "desk__book", "rich__rich_tool"]) expect(listed).not.toContain(name);
    for (const name of ["desk__delete_booking", "delete_booking", "desk__book"]) {
      await expect(agentB.client.callTool({ name, arguments: { id: 7, room: "C" } })).rejects.toThrow(/unknown tool/);
    }
    for (const name of ["desk__delete_booking", "delete_booking", "desk__book"]) {
      const viaCall = await agentB.client.callTool({ name: "mcpx__call", arguments: { name, arguments: { id: 7, room: "C" } } });
      expect(viaCall.isError).toBe(true);
      expect(textOf(viaCall)).toContain(`no tool named ${JSON.stringify(name)}`);
    }
    const described = await agentB.client.callTool({ name: "mcpx__describe", arguments: { names: ["desk__delete_booking"] } });
    expect(described.isError).toBe(true);
    const scripted = await agentB.client.callTool({
      name: "mcpx__exec",
      arguments: { code: "await desk.delete_booking({ id: 7 }); await desk.book({ room: 'C' })" },
    });
    expect(scripted.isError).toBe(true);
    // What it may do, it does: booking 7 is still there, 42 is gone, nothing was booked.
    const bookings = await agentB.client.callTool({ name: "desk__list_bookings", arguments: {} });
    expect(JSON.parse(textOf(bookings))).toEqual({ 7: "room A, Monday" });
  }, 60_000);

  it("mcpx audit shows who called what, and who answered which question", async () => {
    const run = await runMcpx(["audit", "--json", "--server", "desk"], config);
    expect(run.code).toBe(0);
    const entries = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditLine);
    const calls = entries.filter((entry) => entry.kind === "call");
    const questions = entries.filter((entry) => entry.kind === "question");
    expect(calls.map(({ tool, arguments: args, outcome, client }) => ({ tool, arguments: args, outcome, client: client?.split(" ")[0] }))).toEqual([
      { tool: "delete_booking", arguments: { id: 42 }, outcome: "ok", client: "agent-a" },
      { tool: "delete_booking", arguments: { id: 7 }, outcome: "refused", client: "agent-a" },
      { tool: "list_bookings", arguments: {}, outcome: "ok", client: "agent-b" },
    ]);
    expect(calls[0]!.hostSession).toBe(agentA.transport.sessionId);
    expect(calls[2]!.hostSession).toBe(agentB.transport.sessionId);
    // Which endpoint each came through: B's is the readonly profile's, A's the whole gateway's.
    expect(calls.map((entry) => entry.profile)).toEqual([undefined, undefined, "readonly"]);
    const throughProfile = await runMcpx(["audit", "--json", "--profile", "readonly"], config);
    expect(
      throughProfile.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as AuditLine).tool),
    ).toEqual(["list_bookings"]);
    expect(questions.map(({ tool, outcome, answeredBy, hostSession }) => ({ tool, outcome, answeredBy, hostSession }))).toEqual([
      { tool: "delete_booking", outcome: "accept", answeredBy: "web", hostSession: agentA.transport.sessionId },
      { tool: "delete_booking", outcome: "expired", answeredBy: "expiry", hostSession: agentA.transport.sessionId },
    ]);
    // The readable form says the same, one line each.
    const readable = await runMcpx(["audit", "--server", "desk"], config);
    expect(readable.stdout).toMatch(/call {6}desk\.delete_booking \{"id":42\} {2}ok in \d+ ms {2}by session \S+ \(agent-a 1\.0\.0\)/);
    expect(readable.stdout).toMatch(/desk\.list_bookings \{\} {2}ok in \d+ ms {2}by session \S+ profile readonly \(agent-b/);
    expect(readable.stdout).toMatch(/question {2}desk\.delete_booking elicitation\/create \S+ {2}accept by web/);
  }, 30_000);
});
