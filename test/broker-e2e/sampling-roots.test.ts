/**
 * Sampling requests are questions too. A host without the capability is not asked; the
 * question waits in the store and another surface answers it: an accepted CreateMessageResult
 * reaches the upstream as its result, a decline reaches it as an error saying who refused.
 * Roots are not a question (design rule 10): nothing is stored for anyone to answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TempConfig } from "../helpers/mcpx.js";
import { startUi, type RunningUi } from "../helpers/questions-api.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { USER_REJECTED } from "../../src/broker/outcome.js";
import { brokerConfig, elicitListAll, Rest, stateDirOf, waitForQuestion } from "./support.js";

let config: TempConfig;
let host: RecordingHost;
let ui: RunningUi;
let rest: Rest;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  host = await stdioHost(config, { capabilities: {} });
  ui = await startUi(stateDirOf(config));
  rest = new Rest(ui.base, ui.token);
});
afterAll(async () => {
  await host?.close();
  await ui?.close();
});

const pendingOf = (kind: string) => (view: { state: string; kind: string }) => view.state === "pending" && view.kind === kind;

describe("sampling through the broker", () => {
  it("a CreateMessageResult given through REST is what the upstream receives", async () => {
    const call = host.client.callTool({ name: "ask__sample", arguments: { prompt: "Write a haiku" } });
    const question = await waitForQuestion(config, pendingOf("sampling"));
    expect(question).toMatchObject({ server: "ask", tool: "sample", audience: "agent" });
    expect(question.params).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "Write a haiku" } }], maxTokens: 50 });

    // Not a CreateMessageResult: refused, and the question stays open.
    const wrong = await rest.answer(question.id, { action: "accept", content: { text: "just text" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("INVALID_ANSWER");

    const result = { role: "assistant", content: { type: "text", text: "an old silent pond" }, model: "a-person", stopReason: "endTurn" };
    const answered = await rest.answer(question.id, { action: "accept", content: result });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(toolJson(await call)).toEqual(result);
  });

  it("declined through REST, the upstream gets an error naming the refusal", async () => {
    const call = host.client.callTool({ name: "ask__sample", arguments: {} });
    const question = await waitForQuestion(config, pendingOf("sampling"));
    expect((await rest.answer(question.id, { action: "decline" })).status).toBe(200);

    const outcome = toolJson(await call) as { error?: { code: number; message: string } };
    expect(outcome.error?.code).toBe(USER_REJECTED);
    expect(outcome.error?.message).toMatch(/sampling\/createMessage from "ask" was declined \(rest\)/);
  });
});

describe("roots are not a question", () => {
  it("the upstream gets the gateway's answer (none configured: an empty list) and nothing waits in the store", async () => {
    const before = await elicitListAll(config);
    expect(toolJson(await host.client.callTool({ name: "ask__roots", arguments: {} }))).toEqual({ roots: [] });
    expect(await elicitListAll(config)).toEqual(before);
  });
});
