/**
 * A call's timeout stands still while a question it raised waits for a person: with
 * `timeoutSeconds: 1`, a question answered after 2.5 s still completes the call, while the
 * same server's call that asks nothing and hangs times out as configured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TempConfig } from "../helpers/mcpx.js";
import { nodeServer } from "../helpers/mcpx.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, waitForQuestion } from "./support.js";

const HOLD_MS = 2_500;

describe("the upstream call timeout while a question waits", () => {
  let config: TempConfig;
  let host: RecordingHost & { log(): string };
  beforeAll(async () => {
    config = brokerConfig({
      ask: askingStdio({ timeoutSeconds: 1 }),
      faulty: nodeServer("faulty-server.mjs", [], { timeoutSeconds: 1 }),
    });
    host = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => host?.close());

  it("is held while the question is pending, so a slow person still completes the call", async () => {
    const call = host.client.callTool({ name: "ask__ask_form", arguments: { message: "Slow person?" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Slow person?"));
    // Deliberately longer than the 1 s timeout: the point is that time passes.
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    const answered = await elicit(config, "answer", question.id, "name=Ada");
    expect(answered.code, answered.stderr).toBe(0);
    expect(toolJson(await call)).toEqual({ action: "accept", content: { name: "Ada" } });
  });

  it("still applies to a call that asks nothing", async () => {
    const started = Date.now();
    const result = await host.client.callTool({ name: "faulty__hang", arguments: {} }).catch((error: Error) => error);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(/-32001|within 1s/);
    expect(Date.now() - started).toBeLessThan(HOLD_MS + 2_000);
  });
});
