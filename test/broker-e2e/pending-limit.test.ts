/**
 * `limits.maxPendingQuestionsPerServer` bounds what one upstream connection can keep waiting in
 * the broker: beyond it a question is answered `cancel` at once and logged, and is not stored.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";

let config: TempConfig;
let host: RecordingHost & { log(): string };

beforeAll(async () => {
  config = writeConfig({ mcpServers: { ask: askingStdio() }, elicitation: { ttlSeconds: 60 }, limits: { maxPendingQuestionsPerServer: 1 } });
  host = await stdioHost(config, { capabilities: {} });
});
afterAll(async () => host?.close());

it("a question beyond the limit is answered cancel at once; the one waiting is untouched", async () => {
  const first = host.client.callTool({ name: "ask__ask_form", arguments: {} });
  const waiting = await waitForQuestion(config, pendingFrom("ask"));

  const second = await host.client.callTool({ name: "ask__ask_form", arguments: {} });
  expect(toolJson(second)).toEqual({ action: "cancel" });
  expect((await storedQuestions(config)).map((view) => view.id)).toEqual([waiting.id]);

  const run = await elicit(config, "decline", waiting.id);
  expect(run.code, run.stderr).toBe(0);
  expect(toolJson(await first)).toEqual({ action: "decline" });
});
