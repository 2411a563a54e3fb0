/**
 * A sign-in needed when mcpx connects (the 401 answers the handshake, no call waits): the
 * start attempt ends at once with "waiting for a sign-in" as the server's reason (not the
 * startup timeout's "no answer"), `mcpx servers` says so, the question waits for a person, and
 * once they have signed in the server starts without waiting for its backoff.
 */
import { describe, expect, it } from "vitest";
import { signInFixture } from "../helpers/sign-in-fixture.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";
import { stdioHost } from "../relay/support.js";
import { elicit, pendingFrom, storedQuestions, waitForQuestion } from "../broker-e2e/support.js";

const fixture = signInFixture();

const WAITING = /sign-in to "crm".*mcpx auth login crm/;

describe("a sign-in needed at start", () => {
  it("is the reason mcpx servers gives (nobody there can sign in), at once rather than after the startup timeout", async () => {
    // A startup timeout far longer than the test: only the sign-in can end the attempt in time.
    const config = fixture.freshConfig({ limits: { startupTimeoutSeconds: 120 } });
    const started = Date.now();
    const servers = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(servers.code).toBe(1);
    const report = parseServers(servers.stdout).get("crm");
    expect(report?.state).toBe("down");
    expect(report?.reason).toMatch(WAITING);
  }, 60_000);

  it("starts the server as soon as the person has signed in", async () => {
    const config = fixture.freshConfig({ limits: { startupTimeoutSeconds: 120 } });
    const host = await stdioHost(config);
    try {
      // Raised before the host had initialized, the question is nobody's: a person answers it from the CLI.
      const question = await waitForQuestion(config, pendingFrom("crm"), 20_000);
      expect(question.mode).toBe("url");
      expect((await elicit(config, "accept", question.id)).code).toBe(0);
      // Its tools are announced after the sign-in (an earlier list_changed listed mcpx__sign_in).
      const before = host.frames.length;
      expect((await fixture.as.signIn(question.url!)).status).toBe(200);
      // Started at once (a restart by backoff would come seconds later), its tools announced to the host.
      await host.waitFor((frame) => frame.method === "notifications/tools/list_changed" && host.frames.indexOf(frame) >= before, 10_000);
      const result = (await host.client.callTool({ name: "crm__whoami", arguments: {} })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toMatch(/^alice /);
      expect(host.log()).toMatch(/upstream waits for a sign-in/);
      expect(host.log()).not.toMatch(/upstream failed to start/);
      const completed = (await storedQuestions(config)).find((view) => view.id === question.id);
      expect(completed?.state).toBe("answered");
    } finally {
      await host.close();
    }
  }, 60_000);
});
