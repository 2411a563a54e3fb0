/**
 * Person-only is decided from the whole question (issue 6 item 4), through a real gateway in
 * front of the asking fixture: questions whose field names are not the old credential words
 * (a field `otp`, a field titled "Passwort", a message "Enter your 2FA code", a lone yes/no
 * with a neutral name) are listed to an agent as not answerable by it, an agent's answer
 * through `mcpx__answer_question` is refused and leaves them pending, and a broad policy rule
 * does not answer them; a person then answers from the CLI and the blocked call ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TempConfig } from "../helpers/mcpx.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";

const form = (properties: object) => ({ type: "object", properties });

/** [what, message, schema]: each is the person's only under the new reading. */
const PERSON_ONLY: Array<[string, string, object]> = [
  ["a field named otp", "Sign-in step two", form({ otp: { type: "string" } })],
  ['a field titled "Passwort"', "Anmelden", form({ user: { type: "string" }, kennung: { type: "string", title: "Passwort" } })],
  ['a message "Enter your 2FA code"', "Enter your 2FA code", form({ value: { type: "string" } })],
  ["a lone yes/no with a neutral name", "Delete every file in the project?", form({ value: { type: "boolean" } })],
];

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe("an agent through mcpx__answer_question", () => {
  let config: TempConfig;
  let agent: RecordingHost;
  beforeAll(async () => {
    config = brokerConfig({ ask: askingStdio() });
    agent = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => agent?.close());

  it.each(PERSON_ONLY)("%s: not answerable by it, refused, still pending; a person answers", async (_what, message, schema) => {
    const blocked = agent.client.callTool({ name: "ask__ask_form", arguments: { message, schema } });
    const question = await waitForQuestion(config, pendingFrom("ask", message));
    expect(question.audience).toBe("person");

    const listed = toolJson(await agent.client.callTool({ name: "mcpx__pending_questions", arguments: {} })) as Array<{ id: string; answerableByYou: boolean }>;
    expect(listed.find((entry) => entry.id === question.id)).toMatchObject({ answerableByYou: false });

    const refused = await agent.client.callTool({ name: "mcpx__answer_question", arguments: { id: question.id, action: "accept", content: {} } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/for a person only/);
    expect((await storedQuestions(config)).find((view) => view.id === question.id)?.state).toBe("pending");

    const run = await elicit(config, "decline", question.id);
    expect(run.code, run.stderr).toBe(0);
    expect(toolJson(await blocked)).toEqual({ action: "decline" });
  });
});

describe("a broad policy rule", () => {
  let config: TempConfig;
  let host: RecordingHost;
  beforeAll(async () => {
    // Names the server but no field: it may answer what an agent may, never a person's question.
    config = brokerConfig({ ask: askingStdio() }, { rules: [{ match: { server: "ask" }, action: "decline", reason: "too broad" }] });
    host = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => host?.close());

  it("still answers a question an agent may answer", async () => {
    const outcome = toolJson(
      await host.client.callTool({
        name: "ask__ask_form",
        arguments: { message: "Which colour?", schema: form({ colour: { type: "string" }, size: { type: "string" } }) },
      }),
    );
    expect(outcome).toEqual({ action: "decline" });
  });

  it.each(PERSON_ONLY)("%s: the rule does not answer it; it waits for a person", async (_what, message, schema) => {
    const blocked = host.client.callTool({ name: "ask__ask_form", arguments: { message, schema } });
    const question = await waitForQuestion(config, (view) => view.server === "ask" && view.message === message);
    expect(question).toMatchObject({ state: "pending", audience: "person" });

    const run = await elicit(config, "cancel", question.id);
    expect(run.code, run.stderr).toBe(0);
    expect(toolJson(await blocked)).toEqual({ action: "cancel" });
  });
});
