/**
 * The sign-in asked inline of the calling host: a 2025-11-25 host that declared
 * `elicitation.url` gets the authorization URL as a URL-mode `elicitation/create` naming the
 * server and the scopes (the URL in full, valid against the revision's schema); it consents and
 * the person signs in at a real authorization server; `notifications/elicitation/complete`
 * follows to that host, and the call that needed the token completes. A decline fails the call
 * with a clear sign-in error; one nobody answers expires as any question.
 */
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { signInFixture } from "../helpers/sign-in-fixture.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { stdioHost, type Frame, type RecordingHost } from "../relay/support.js";
import { storedQuestions } from "./support.js";

const COMPLETE = "notifications/elicitation/complete";

const fixture = signInFixture({ protect: "calls" });
let host: (RecordingHost & { log(): string }) | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

describe("sign-in asked inline of a 2025-11-25 host", () => {
  it("reaches the host as a URL question; the call completes once the person has signed in", async () => {
    const config = fixture.freshConfig();
    const signedIn: Promise<unknown>[] = [];
    host = await stdioHost(config, {
      capabilities: { elicitation: { form: {}, url: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          const params = request.params as { url?: string };
          if (params.url) signedIn.push(fixture.as.signIn(params.url));
          return { action: "accept" };
        }),
    });
    const result = await host.client.callTool({ name: "crm__whoami", arguments: {} });
    expect(textOf(result)).toMatch(/^alice\b.*\bmcp\b/);

    const [asked] = host.requests("elicitation/create");
    expect(host.requests("elicitation/create")).toHaveLength(1);
    expectValidToClient("2025-11-25", asked!);
    const params = asked!.params as { mode: string; url: string; message: string; elicitationId: string };
    expect(params.mode).toBe("url");
    expect(params.message).toContain('Sign in to "crm" for mcp');
    const url = new URL(params.url);
    expect(url.origin).toBe(fixture.as.issuer);
    expect(url.searchParams.get("resource")).toBe(fixture.upstream.url);
    expect(url.searchParams.get("state")).toBeTruthy();

    const complete = await host.waitFor((frame: Frame) => frame.method === COMPLETE);
    expect(complete.params).toEqual({ elicitationId: params.elicitationId });
    expectValidToClient("2025-11-25", complete);
    const [back] = (await Promise.all(signedIn)) as Array<{ status: number }>;
    expect(back?.status).toBe(200);

    // The token is kept: the next call asks nothing.
    expect(textOf(await host.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^alice\b/);
    expect(host.requests("elicitation/create")).toHaveLength(1);
  }, 60_000);

  it("fails the call with a sign-in error when the host declines", async () => {
    const tokenRequests = fixture.as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token").length;
    const config = fixture.freshConfig();
    host = await stdioHost(config, {
      capabilities: { elicitation: { form: {}, url: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" })),
    });
    const failure = await host.client.callTool({ name: "crm__whoami", arguments: {} }).then(
      (answer) => JSON.stringify(answer),
      (error: unknown) => (error as Error).message,
    );
    expect(failure).toContain('the sign-in to "crm" was declined');
    expect(failure).not.toContain("could not reach");
    // Nobody signed in: no token was asked for.
    expect(fixture.as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token")).toHaveLength(tokenRequests);
  }, 60_000);

  it("expires as any question when nobody answers, and the call fails", async () => {
    const config = fixture.freshConfig({ elicitation: { ttlSeconds: 2 } });
    // A host that takes no URL questions: the sign-in waits for a person, and nobody comes.
    host = await stdioHost(config, { capabilities: {} });
    const failure = await host.client.callTool({ name: "crm__whoami", arguments: {} }).then(
      (answer) => JSON.stringify(answer),
      (error: unknown) => (error as Error).message,
    );
    // The question's deadline and the sign-in's are the same: either may be the one that ends it.
    expect(failure).toMatch(/the sign-in to "crm" was cancelled|nobody signed in to "crm" in time/);
    expect(failure).not.toContain("could not reach");
    const [question] = (await storedQuestions(config)).filter((view) => view.server === "crm");
    expect(question).toMatchObject({ mode: "url", state: "expired" });
  }, 60_000);
});
