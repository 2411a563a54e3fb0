/**
 * The sign-in asked of a 2026-07-28 host: its call to a server that needs a token is answered
 * `input_required` with a URL request (the authorization URL in full, the server and scope
 * named); the host consents, the person signs in at a real authorization server, and the host's
 * retry gets the tool's result. Every frame mcpx sends is valid against the 2026-07-28 schema.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { startMcpxHttp, writeConfig } from "../helpers/mcpx.js";
import { startProtectedUpstream } from "../helpers/protected-upstream.js";
import { servedSignInFixture } from "../helpers/sign-in-fixture.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const V = "2026-07-28";
const fixture = servedSignInFixture({ protect: "calls" });

/** The host's tools/call was answered input_required first and complete last, and every frame mcpx sent is valid for the revision. */
function expectAskedThenCompleted(frames: Received[]): void {
  const rounds = frames
    .filter((received) => received.requestMethod === "tools/call")
    .map((received) => (received.frame.result as { resultType?: string } | undefined)?.resultType);
  expect(rounds[0]).toBe("input_required");
  expect(rounds.at(-1)).toBe("complete");
  for (const { frame, requestMethod } of frames) expectValidToClient(V, frame, requestMethod);
}

describe("sign-in asked of a 2026-07-28 host", () => {
  it("is an input_required URL request; the host's retry gets the result once the person signed in", async () => {
    const frames: Received[] = [];
    const client = new ModernClient(
      { name: "modern-host", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "auto" } },
    );
    const asked: Array<Record<string, unknown>> = [];
    const signIns: Promise<unknown>[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as Record<string, unknown>;
      asked.push(params);
      if (typeof params.url === "string") signIns.push(fixture.as.signIn(params.url));
      return { action: "accept" };
    });
    await client.connect(recording(new ModernHttp(fixture.mcpx.url), frames));
    try {
      const result = (await client.callTool({ name: "crm__whoami", arguments: {} })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toMatch(/^alice /);
      await Promise.all(signIns);
    } finally {
      await client.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: "url" });
    expect(String(asked[0]!.message)).toContain('Sign in to "crm" for mcp');
    const url = new URL(String(asked[0]!.url));
    expect(url.origin).toBe(fixture.as.issuer);
    expect(url.searchParams.get("resource")).toBe(fixture.upstream.url);
    expectAskedThenCompleted(frames);
  }, 60_000);
});

describe("mcpx__sign_in called by a 2026-07-28 host", () => {
  it("is an input_required URL request for the sign-in raised at connect; the retry ends signed in, the server's tools listed", async () => {
    const guarded = await startProtectedUpstream({ issuer: fixture.as.issuer });
    const gateway = await startMcpxHttp(
      writeConfig({ mcpServers: { crm: { url: guarded.url } }, elicitation: { ttlSeconds: 60 }, limits: { startupTimeoutSeconds: 60 } }),
    );
    const frames: Received[] = [];
    const client = new ModernClient(
      { name: "modern-host", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: "auto" } },
    );
    const asked: Array<Record<string, unknown>> = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as Record<string, unknown>;
      asked.push(params);
      if (typeof params.url === "string") setImmediate(() => void fixture.as.signIn(String(params.url)));
      return { action: "accept" };
    });
    await client.connect(recording(new ModernHttp(gateway.url), frames));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["mcpx__sign_in"]));
      const result = (await client.callTool({ name: "mcpx__sign_in", arguments: { server: "crm" } })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toMatch(/^Signed in to "crm": it is ready/);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain("crm__whoami");
      expect(tools).not.toContain("mcpx__sign_in");
    } finally {
      await client.close();
      await gateway.close();
      await guarded.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: "url" });
    expect(String(asked[0]!.message)).toContain('Sign in to "crm"');
    expectAskedThenCompleted(frames);
  }, 60_000);
});
