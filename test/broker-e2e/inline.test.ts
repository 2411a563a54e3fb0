/**
 * A question the calling host can take is delivered to it inline, and the host's answer is
 * the one that settles it: the upstream gets it, and the shared store records it as answered
 * by that host's session, visible to `mcpx elicit list` in another process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio, httpHost, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicitListAll } from "./support.js";

const FORM_ANSWER = { action: "accept", content: { name: "Ada", age: 36 } } as const;
const SAMPLE = { role: "assistant", content: { type: "text", text: "hello from the host" }, model: "host-model" } as const;

function answeringHost(client: RecordingHost["client"]): void {
  client.setRequestHandler(ElicitRequestSchema, async () => FORM_ANSWER);
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLE);
}

describe("a stdio host with elicitation and sampling", () => {
  let config: TempConfig;
  let host: RecordingHost;
  beforeAll(async () => {
    config = brokerConfig({ ask: askingStdio() });
    host = await stdioHost(config, { capabilities: { elicitation: { form: {} }, sampling: {} }, setup: answeringHost });
  });
  afterAll(async () => host?.close());

  it("answers a form inline; the store shows it answered by host:stdio-<pid>, to mcpx elicit list in another process", async () => {
    const result = await host.client.callTool({ name: "ask__ask_form", arguments: { message: "Who are you?" } });
    expect(toolJson(result)).toEqual(FORM_ANSWER);
    expect(host.requests("elicitation/create")).toHaveLength(1);

    const listed = (await elicitListAll(config)).filter((view) => view.kind === "elicitation");
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      server: "ask",
      tool: "ask_form",
      hostSession: expect.stringMatching(/^stdio-\d+$/),
      mode: "form",
      message: "Who are you?",
      state: "answered",
      answer: { action: "accept", content: FORM_ANSWER.content, by: expect.stringMatching(/^host:stdio-\d+$/) },
    });
  });

  it("answers sampling inline; the upstream gets the host's CreateMessageResult and the store records it", async () => {
    const result = await host.client.callTool({ name: "ask__sample", arguments: { prompt: "Say hello" } });
    expect(toolJson(result)).toMatchObject(SAMPLE);

    const sampled = (await elicitListAll(config)).filter((view) => view.kind === "sampling");
    expect(sampled).toHaveLength(1);
    expect(sampled[0]).toMatchObject({ state: "answered", answer: { action: "accept", content: SAMPLE, by: expect.stringMatching(/^host:stdio-\d+$/) } });
  });
});

describe("an HTTP host with elicitation", () => {
  let config: TempConfig;
  let mcpx: RunningMcpx & { url: URL };
  let host: RecordingHost & { transport: { sessionId?: string } };
  beforeAll(async () => {
    config = brokerConfig({ ask: askingStdio() });
    mcpx = await startMcpxHttp(config);
    host = await httpHost(mcpx.url, { capabilities: { elicitation: { form: {} }, sampling: {} }, setup: answeringHost });
  });
  afterAll(async () => {
    await host?.close();
    await mcpx?.close();
  });

  it("answers inline; the store names its own session as the answerer", async () => {
    const result = await host.client.callTool({ name: "ask__ask_form", arguments: {} });
    expect(toolJson(result)).toEqual(FORM_ANSWER);

    const sessionId = host.transport.sessionId;
    expect(sessionId).toBeTruthy();
    const listed = await elicitListAll(config);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ hostSession: sessionId, state: "answered", answer: { by: `host:${sessionId}` } });
  });
});
