/**
 * Gateway tools for hosts without elicitation: the agent driving such a host sees
 * `mcpx__pending_questions` and `mcpx__answer_question`, and can answer a question its own
 * blocked call is waiting on with a second, concurrent call. Person-only questions (a
 * password, a URL) are listed as not answerable by it, and answering one fails and leaves it
 * pending. An agent sees only its own host's questions (and those no call can be proven to
 * own), never another host's, even one of another `mcpx serve` on the same store. Hosts with
 * elicitation are asked directly and are not offered the tools.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TempConfig } from "../helpers/mcpx.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";

const AGENT_TOOLS = ["mcpx__answer_question", "mcpx__pending_questions"];

interface Listed {
  id: string;
  server: string;
  message: string;
  answerableByYou: boolean;
  audienceReason: string;
  requestedSchema?: unknown;
}

let config: TempConfig;
let agent: RecordingHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  agent = await stdioHost(config, { capabilities: {} });
});
afterAll(async () => agent?.close());

async function pendingQuestions(): Promise<Listed[]> {
  return toolJson(await agent.client.callTool({ name: "mcpx__pending_questions", arguments: {} })) as Listed[];
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe("which hosts are offered the tools", () => {
  it("a host without elicitation lists them; a host with elicitation does not", async () => {
    const tools = (await agent.client.listTools()).tools;
    const names = tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith("mcpx__") && name !== "mcpx__exec").sort()).toEqual(AGENT_TOOLS);
    // Over stdio this process serves no page: the description names the surfaces that exist.
    const listing = tools.find((tool) => tool.name === "mcpx__pending_questions")?.description ?? "";
    expect(listing).not.toMatch(/web page/);
    expect(listing).toContain("mcpx ui");
    expect(names).toContain("ask__ask_form");

    const asked = await stdioHost(config, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "cancel" })),
    });
    try {
      const theirs = (await asked.client.listTools()).tools.map((tool) => tool.name);
      expect(theirs).toContain("ask__ask_form");
      expect(theirs.filter((name) => name.startsWith("mcpx__"))).toEqual(["mcpx__exec"]);
    } finally {
      await asked.close();
    }
  });
});

describe("an agent answering the question its own call waits on", () => {
  it("lists it with its schema, answers it with a second call, and the first call completes", async () => {
    const blocked = agent.client.callTool({ name: "ask__ask_form", arguments: { message: "Which user?" } });
    await waitForQuestion(config, pendingFrom("ask", "Which user?"));

    const listed = (await pendingQuestions()).find((question) => question.message === "Which user?");
    expect(listed).toMatchObject({ server: "ask", answerableByYou: true, requestedSchema: { required: ["name"] } });

    const answered = await agent.client.callTool({
      name: "mcpx__answer_question",
      arguments: { id: listed!.id, action: "accept", content: { name: "agent-smith" } },
    });
    expect(answered.isError).toBeFalsy();
    expect(JSON.parse(textOf(answered))).toMatchObject({ id: listed!.id, state: "answered", answer: { by: expect.stringMatching(/^agent:stdio-\d+$/) } });

    expect(toolJson(await blocked)).toEqual({ action: "accept", content: { name: "agent-smith" } });
  });

  it("an answer that does not fit the schema is refused with the field named, and the question stays open", async () => {
    const blocked = agent.client.callTool({ name: "ask__ask_form", arguments: { message: "Your age?" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Your age?"));

    const wrong = await agent.client.callTool({ name: "mcpx__answer_question", arguments: { id: question.id, action: "accept", content: { age: -1 } } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/missing required field "name".*field "age" must be >= 0/);
    expect((await storedQuestions(config)).find((view) => view.id === question.id)?.state).toBe("pending");

    await agent.client.callTool({ name: "mcpx__answer_question", arguments: { id: question.id, action: "decline" } });
    expect(toolJson(await blocked)).toEqual({ action: "decline" });
  });
});

describe("person-only questions", () => {
  it.each([
    [
      "a password field",
      {
        name: "ask__ask_form",
        arguments: { message: "Your password?", schema: { type: "object", properties: { password: { type: "string", format: "password" } } } },
      },
      "Your password?",
      /password/,
    ],
    ["a URL", { name: "ask__ask_url", arguments: {} }, "Please sign in to continue", /URL/],
  ])("%s: listed as not answerable by the agent; answering it fails and it stays pending", async (_kind, toolCall, message, reason) => {
    const blocked = agent.client.callTool(toolCall);
    const question = await waitForQuestion(config, pendingFrom("ask", message));

    const listed = (await pendingQuestions()).find((entry) => entry.id === question.id);
    expect(listed).toMatchObject({ answerableByYou: false, server: "ask", message });
    expect(listed!.audienceReason).toMatch(reason);
    expect(listed).not.toHaveProperty("requestedSchema");

    const refused = await agent.client.callTool({ name: "mcpx__answer_question", arguments: { id: question.id, action: "accept", content: {} } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/for a person only/);
    expect((await storedQuestions(config)).find((view) => view.id === question.id)?.state).toBe("pending");

    // The person answers it from the CLI; the blocked call ends.
    const run = await elicit(config, "decline", question.id);
    expect(run.code, run.stderr).toBe(0);
    expect(toolJson(await blocked)).toEqual({ action: "decline" });
  });
});

describe("another host's questions", () => {
  it("an agent behind another `mcpx serve` on the same store neither sees nor answers them", async () => {
    const blocked = agent.client.callTool({ name: "ask__ask_form", arguments: { message: "Mine only" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Mine only"));

    const stranger = await stdioHost(config, { capabilities: {} });
    try {
      const listed = toolJson(await stranger.client.callTool({ name: "mcpx__pending_questions", arguments: {} })) as Listed[];
      expect(listed.map((entry) => entry.id)).not.toContain(question.id);
      const refused = await stranger.client.callTool({
        name: "mcpx__answer_question",
        arguments: { id: question.id, action: "accept", content: { name: "a stranger" } },
      });
      expect(refused.isError).toBe(true);
      expect((await storedQuestions(config)).find((view) => view.id === question.id)?.state).toBe("pending");
    } finally {
      await stranger.close();
    }

    expect((await pendingQuestions()).map((entry) => entry.id)).toContain(question.id);
    await agent.client.callTool({ name: "mcpx__answer_question", arguments: { id: question.id, action: "cancel" } });
    expect(toolJson(await blocked)).toEqual({ action: "cancel" });
  });
});
