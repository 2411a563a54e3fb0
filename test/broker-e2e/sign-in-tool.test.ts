/**
 * A server that refuses mcpx's handshake until someone signs in has no tools to list, so no
 * call of its could carry the sign-in: hosts are listed `mcpx__sign_in` naming it instead.
 * Calling it puts the sign-in question (the one already waiting on the page and in `mcpx
 * elicit`, not another) to that host inline with the full URL; once the person has signed in
 * the server starts, the call ends saying so, the host hears `tools/list_changed`, and the
 * server's tools replace `mcpx__sign_in`. A host that cannot take URL questions is told where
 * the question waits, and its call ends when a person signs in from the CLI. Once a server was
 * read, a later wait for a sign-in keeps its last tools listed: calling one asks on that call.
 */
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";
import { startProtectedUpstream, type ProtectedUpstream } from "../helpers/protected-upstream.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { stdioHost, type Frame, type RecordingHost } from "../relay/support.js";
import { elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";
import { runMcpx } from "../helpers/upstreams.js";

const SIGN_IN = "mcpx__sign_in";

let as: RunningAuthorizationServer;
let upstream: ProtectedUpstream;
let host: (RecordingHost & { log(): string }) | undefined;

beforeAll(async () => {
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
});
afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(async () => {
  await upstream?.close();
  await as?.close();
});

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

async function toolNames(): Promise<string[]> {
  return (await host!.client.listTools()).tools.map((tool) => tool.name);
}

describe("mcpx__sign_in, for a server that needs a sign-in before it lists anything", () => {
  it("is listed naming the server; calling it asks this host inline, and the server's tools follow", async () => {
    const config = writeConfig({ mcpServers: { crm: { url: upstream.url } }, limits: { startupTimeoutSeconds: 60 }, elicitation: { ttlSeconds: 60 } });
    const signedIn: Promise<{ status: number }>[] = [];
    host = await stdioHost(config, {
      capabilities: { elicitation: { form: {}, url: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          const params = request.params as { url?: string };
          if (params.url) signedIn.push(as.signIn(params.url));
          return { action: "accept" };
        }),
    });
    // Raised when mcpx connected, before the host had initialized: it waits for a person.
    const waiting = await waitForQuestion(config, pendingFrom("crm"), 20_000);
    const listed = (await host.client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).not.toContain("crm__whoami");
    const signIn = listed.find((tool) => tool.name === SIGN_IN);
    expect(signIn?.inputSchema.properties).toMatchObject({ server: { enum: ["crm"] } });
    expect(signIn?.description).toContain('"crm"');

    const before = host.frames.length;
    const result = await host.client.callTool({ name: SIGN_IN, arguments: { server: "crm" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^Signed in to "crm": it is ready, with 2 tools\b/);

    // The very question that waited, put to this host in full, valid for its revision.
    const asked = host.requests("elicitation/create");
    expect(asked).toHaveLength(1);
    expectValidToClient("2025-11-25", asked[0]!);
    const params = asked[0]!.params as { mode: string; url: string; message: string; elicitationId: string };
    expect(params).toMatchObject({ mode: "url", url: waiting.url });
    expect(params.message).toContain('Sign in to "crm"');
    expect((await Promise.all(signedIn))[0]?.status).toBe(200);
    const complete = await host.waitFor((frame: Frame) => frame.method === "notifications/elicitation/complete");
    expect(complete.params).toEqual({ elicitationId: params.elicitationId });
    const questions = (await storedQuestions(config)).filter((view) => view.server === "crm");
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ id: waiting.id, state: "answered" });

    await host.waitFor((frame: Frame) => frame.method === "notifications/tools/list_changed" && host!.frames.indexOf(frame) >= before);
    const after = await toolNames();
    expect(after).toContain("crm__whoami");
    expect(after).not.toContain(SIGN_IN);
    expect(textOf(await host.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^alice\b/);
    await host.close();

    // Signed out, a new mcpx must ask again: the tools crm listed last time are listed meanwhile,
    // and calling one asks this host inline on that very call, which then completes.
    expect((await runMcpx(["auth", "logout", "crm"], config)).code).toBe(0);
    host = await stdioHost(config, {
      capabilities: { elicitation: { form: {}, url: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          const params = request.params as { url?: string };
          if (params.url) setImmediate(() => void as.signIn(String(params.url)));
          return { action: "accept" };
        }),
    });
    await waitForQuestion(config, (view) => view.server === "crm" && view.state === "pending" && view.id !== waiting.id, 20_000);
    const remembered = await toolNames();
    expect(remembered).toEqual(expect.arrayContaining(["crm__whoami", SIGN_IN]));
    expect(textOf(await host.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^alice\b/);
    expect(host.requests("elicitation/create")).toHaveLength(1);
    expect(await toolNames()).not.toContain(SIGN_IN);
  }, 90_000);

  it("tells a host that cannot take URL questions where it waits; a person signs in from the CLI and the call ends", async () => {
    const config = writeConfig({ mcpServers: { crm: { url: upstream.url } }, limits: { startupTimeoutSeconds: 60 }, elicitation: { ttlSeconds: 60 } });
    host = await stdioHost(config, { capabilities: {} });
    const waiting = await waitForQuestion(config, pendingFrom("crm"), 20_000);
    expect(await toolNames()).toContain(SIGN_IN);
    const unnamed = await host.client.callTool({ name: SIGN_IN, arguments: {} });
    expect(unnamed.isError).toBe(true);
    expect(textOf(unnamed)).toContain('give "server": the name of a server that needs a sign-in ("crm")');
    await host.client.setLoggingLevel("warning");
    const call = host.client.callTool({ name: SIGN_IN, arguments: { server: "crm" } });
    const told = await host.waitFor((frame: Frame) => frame.method === "notifications/message" && JSON.stringify(frame.params).includes(waiting.id));
    expect(JSON.stringify(told.params)).toMatch(/mcpx elicit show/);
    expect(host.requests("elicitation/create")).toHaveLength(0);

    expect((await elicit(config, "accept", waiting.id)).code).toBe(0);
    expect((await as.signIn(waiting.url!)).status).toBe(200);
    expect(textOf(await call)).toMatch(/^Signed in to "crm"/);
    expect(await toolNames()).not.toContain(SIGN_IN);
  }, 60_000);
});
