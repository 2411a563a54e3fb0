/**
 * A question the calling host cannot take is not sent to it: it waits in the store, and an
 * answer from another surface (another process) completes the host's tool call. This is the
 * issue's "done when": a person runs `mcpx serve` for a host without elicitation, answers
 * from `mcpx elicit` in another terminal, and the tool call completes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { startUi, type RunningUi } from "../helpers/questions-api.js";
import { askingStdio, frameToolJson, isRequestFrame, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, Rest, stateDirOf, storedQuestions, waitForQuestion } from "./support.js";

let config: TempConfig;
beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
});

describe("a host without elicitation (SDK 1.x over stdio)", () => {
  let host: RecordingHost;
  beforeAll(async () => {
    host = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => host?.close());

  it("is not asked; `mcpx elicit answer` in another process completes its tool call with that answer", async () => {
    const call = host.client.callTool({ name: "ask__ask_form", arguments: { message: "Who is booking?" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Who is booking?"));
    expect(question).toMatchObject({ tool: "ask_form", hostSession: expect.stringMatching(/^stdio-\d+$/), mode: "form", audience: "agent" });

    const run = await elicit(config, "answer", question.id, '{"name":"Ada","age":36}');
    expect(run.code, run.stderr).toBe(0);

    expect(toolJson(await call)).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
    expect(host.requests()).toEqual([]);
    expect((await storedQuestions(config)).find((view) => view.id === question.id)?.answer).toMatchObject({ action: "accept", by: "cli" });
  });

  it("is not asked a URL question either; `mcpx elicit accept` gives the upstream accept without content", async () => {
    const call = host.client.callTool({ name: "ask__ask_url", arguments: { url: "https://example.com/sign-in" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Please sign in to continue"));
    expect(question).toMatchObject({ mode: "url", url: "https://example.com/sign-in", audience: "person" });

    const run = await elicit(config, "accept", question.id);
    expect(run.code, run.stderr).toBe(0);
    expect(toolJson(await call)).toEqual({ action: "accept" });
  });
});

describe("a host that declared form elicitation but not url (2025-11-25, raw)", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize("2025-11-25", { elicitation: { form: {} } });
  });
  afterAll(async () => host?.close());

  it("is not sent the URL question; it waits, and `mcpx elicit accept` gives the upstream accept without content", async () => {
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask__ask_url", arguments: { complete: false } } });
    const question = await waitForQuestion(config, (view) => view.state === "pending" && view.mode === "url");
    // Told, on its call, that the call waits on a question it is not being asked, and where it is.
    const notice = await host.waitFor((frame) => frame.method === "notifications/message");
    expectValidToClient("2025-11-25", notice);
    expect(notice.params).toMatchObject({
      level: "warning",
      logger: "mcpx",
      data: { question: question.id, server: "ask", reason: expect.stringContaining("elicitation.url") },
    });
    const message = (notice.params as { data: { message: string } }).data.message;
    expect(message).toContain(`mcpx elicit show ${question.id}`);
    // Over stdio this process serves no page: the message names the surfaces that exist.
    expect(message).not.toMatch(/web page/);
    expect(message).toContain("mcpx ui");

    const run = await elicit(config, "accept", question.id);
    expect(run.code, run.stderr).toBe(0);
    const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame));
    expect(frameToolJson(answer)).toEqual({ action: "accept" });
    expect(host.frames.filter((frame) => isRequestFrame(frame))).toEqual([]);
  });
});

describe("a 2025-06-18 host with elicitation, asked a multi-select it cannot express (raw)", () => {
  let host: RawStdioHost;
  let ui: RunningUi;
  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize("2025-06-18", { elicitation: {} });
    ui = await startUi(stateDirOf(config));
  });
  afterAll(async () => {
    await host?.close();
    await ui?.close();
  });

  it("is not sent it; an answer through REST (mcpx ui, another process) completes the call with that content", async () => {
    host.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask__ask_enums", arguments: { multi: true } } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Pick some options"));

    const content = { untitledSingle: "green", titledSingle: "#f00", legacyTitled: "l", untitledMulti: ["a", "c"], titledMulti: ["y"] };
    const rest = new Rest(ui.base, ui.token);
    const answered = await rest.answer(question.id, { action: "accept", content });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body).toMatchObject({ state: "answered", answer: { by: "rest" } });

    const answer = await host.waitFor((frame) => frame.id === 3 && !("method" in frame));
    expect(frameToolJson(answer)).toEqual({ action: "accept", content });
    expect(host.frames.filter((frame) => isRequestFrame(frame))).toEqual([]);
    await host.running.waitForLog(/the calling host cannot take this question.*multi-select/);
  });
});
