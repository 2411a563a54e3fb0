/**
 * A question delivered inline also waits in the store: whichever surface answers first
 * settles it. When the CLI wins, the upstream gets the CLI's answer and the request still open
 * at the host is cancelled (`notifications/cancelled` for the very request mcpx sent); a late
 * reply from the host changes nothing. When the host wins, the CLI is told the first answer stands.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, frameToolJson, isRequestFrame, type Frame } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";

let config: TempConfig;
let host: RawStdioHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  host = new RawStdioHost(config);
  await host.initialize("2025-11-25", { elicitation: { form: {} } });
});
afterAll(async () => host?.close());

const resultOf = (id: number) => (frame: Frame) => frame.id === id && !("method" in frame);

describe("a host that is asked inline but does not answer", () => {
  it("loses to the CLI: the upstream gets the CLI's answer and the host's request is cancelled", async () => {
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Race me" } } });
    const asked = await host.waitFor((frame) => isRequestFrame(frame, "elicitation/create"));
    const question = await waitForQuestion(config, pendingFrom("ask", "Race me"));

    const run = await elicit(config, "answer", question.id, "name=From the CLI");
    expect(run.code, run.stderr).toBe(0);

    expect(frameToolJson(await host.waitFor(resultOf(2)))).toEqual({ action: "accept", content: { name: "From the CLI" } });
    const cancelled = await host.waitFor((frame) => frame.method === "notifications/cancelled");
    expect((cancelled.params as { requestId: unknown }).requestId).toBe(asked.id);
    expectValidToClient("2025-11-25", cancelled);

    // The host's reply arrives too late: it is dropped, and the store keeps the CLI's answer.
    host.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "From the host" } } });
    // mcpx goes on serving this host; and it read the late reply before this ping (one ordered pipe).
    expect(await host.request(3, "ping")).toMatchObject({ result: {} });
    const answer = (await storedQuestions(config)).find((view) => view.id === question.id)?.answer;
    expect(answer).toMatchObject({ action: "accept", by: "cli", content: { name: "From the CLI" } });
  });

  it("wins when it answers first: the upstream gets the host's answer and a later CLI answer is refused", async () => {
    host.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Host first" } } });
    const asked = await host.waitFor(
      (frame) => isRequestFrame(frame, "elicitation/create") && (frame.params as { message: string }).message === "[ask] Host first",
    );
    const question = await waitForQuestion(config, pendingFrom("ask", "Host first"));

    host.send({ jsonrpc: "2.0", id: asked.id, result: { action: "decline" } });
    expect(frameToolJson(await host.waitFor(resultOf(4)))).toEqual({ action: "decline" });

    const run = await elicit(config, "answer", question.id, "name=Too late");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already answered \(decline by host:stdio-\d+ .*\); the first answer stands/);
  });
});
