/**
 * A question survives the restart of any process that is not the one waiting on it. While an
 * `mcpx serve` waits on a question: `mcpx ui` is stopped and started again, and another
 * `mcpx serve` on the same state dir comes and goes; the question is still pending, listed,
 * and an answer through the restarted page's REST API completes the host's call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type TempConfig } from "../helpers/mcpx.js";
import { startUi } from "../helpers/questions-api.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicitListAll, pendingFrom, Rest, stateDirOf, waitForQuestion } from "./support.js";

let config: TempConfig;
let host: RecordingHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  host = await stdioHost(config, { capabilities: {} });
});
afterAll(async () => host?.close());

describe("a pending question while other mcpx processes restart", () => {
  it("stays pending and answerable across a restart of mcpx ui and of another mcpx serve", async () => {
    const call = host.client.callTool({ name: "ask__ask_form", arguments: { message: "Still there?" } });
    const question = await waitForQuestion(config, pendingFrom("ask", "Still there?"));

    const first = await startUi(stateDirOf(config));
    const listed = await new Rest(first.base, first.token).get("/v1/questions");
    expect(listed.body.map((view: { id: string }) => view.id)).toEqual([question.id]);
    await first.close();

    // Another gateway on the same store starts and stops: it closes only its own questions.
    const other = await startMcpxHttp(config);
    await other.close();
    expect((await elicitListAll(config)).find((view) => view.id === question.id)?.state).toBe("pending");

    const second = await startUi(stateDirOf(config));
    try {
      const rest = new Rest(second.base, second.token);
      expect((await rest.get(`/v1/questions/${question.id}`)).body).toMatchObject({ state: "pending" });
      const answered = await rest.answer(question.id, { action: "accept", content: { name: "Still here" } });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    } finally {
      await second.close();
    }
    expect(toolJson(await call)).toEqual({ action: "accept", content: { name: "Still here" } });
  });
});
