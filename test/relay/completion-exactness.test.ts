/**
 * A URL question's completion follows the proof of who was asked (design rule 5): it is
 * remembered per upstream connection, not per server name. With a per-host server, two hosts'
 * processes of it may use the same elicitationId; a completion on one host's connection must
 * never reach the other host.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { brokerConfig, elicit, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";
import { askingStdio, httpHost, toolJson, type RecordingHost } from "./support.js";

const COMPLETE = "notifications/elicitation/complete";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let urlHost: RecordingHost;
let plainHost: RecordingHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio({ sharing: "per-host" }) });
  mcpx = await startMcpxHttp(config);
  urlHost = await httpHost(mcpx.url, {
    name: "url-host",
    capabilities: { elicitation: { form: {}, url: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" })),
  });
  plainHost = await httpHost(mcpx.url, { name: "plain-host", capabilities: {} });
});
afterAll(async () => {
  await urlHost?.close();
  await plainHost?.close();
  await mcpx?.close();
});

it("a completion on one host's connection does not reach another host that was asked under the same id", async () => {
  // The URL host is asked and consents; its upstream never says it is complete.
  const first = await urlHost.client.callTool({ name: "ask__ask_url", arguments: { elicitationId: "shared-id", complete: false } });
  expect(toolJson(first)).toEqual({ action: "accept" });
  expect(urlHost.requests("elicitation/create")).toHaveLength(1);

  // The other host cannot take URL questions: a person consents from the CLI, and that host's
  // own process of the server then completes the same id on its own connection.
  const second = plainHost.client.callTool({ name: "ask__ask_url", arguments: { elicitationId: "shared-id", complete: true } });
  const question = await waitForQuestion(config, pendingFrom("ask"));
  const run = await elicit(config, "accept", question.id);
  expect(run.code, run.stderr).toBe(0);
  expect(toolJson(await second)).toEqual({ action: "accept" });

  // Misrouted, it would travel on the URL host's standing stream, which has no order with the
  // other host's answer: give it a moment to show.
  await expect(urlHost.waitFor((frame) => frame.method === COMPLETE, 1_000)).rejects.toThrow(/no matching frame/);
  expect(plainHost.frames.filter((frame) => frame.method === COMPLETE)).toEqual([]);
});
