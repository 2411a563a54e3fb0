/**
 * Two surfaces answer the same question at once, `mcpx elicit answer` (its own process) and
 * REST: exactly one wins, the other is told clearly (exit 1 / HTTP 409 ALREADY_SETTLED), and
 * the upstream gets the winner's answer. Several rounds, with the REST request sent at
 * staggered moments after the CLI starts so that it lands on both sides of the CLI's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio, httpHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, Rest, waitForQuestion } from "./support.js";

/** Milliseconds between starting the CLI and sending the REST answer, one round each. */
const OFFSETS = [0, 150, 300, 450, 600];

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let host: RecordingHost;
let rest: Rest;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  mcpx = await startMcpxHttp(config);
  host = await httpHost(mcpx.url, { capabilities: {} });
  rest = Rest.fromLog(mcpx.stderr());
});
afterAll(async () => {
  await host?.close();
  await mcpx?.close();
});

describe("the CLI and REST answering one question at the same time", () => {
  it.each(OFFSETS)("REST %i ms after the CLI starts: exactly one wins and the upstream gets its answer", async (offset) => {
    const message = `Round ${offset}`;
    const call = host.client.callTool({ name: "ask__ask_form", arguments: { message } });
    const question = await waitForQuestion(config, pendingFrom("ask", message));

    const [cli, api] = await Promise.all([
      elicit(config, "answer", question.id, "name=cli"),
      new Promise((resolve) => setTimeout(resolve, offset)).then(() => rest.answer(question.id, { action: "accept", content: { name: "rest" } })),
    ]);

    const winners = [cli.code === 0 && "cli", api.status === 200 && "rest"].filter(Boolean);
    expect(winners, `cli: ${cli.code} ${cli.stderr}; rest: ${api.status} ${JSON.stringify(api.body)}`).toHaveLength(1);
    if (winners[0] === "cli") {
      expect(api.status).toBe(409);
      expect(api.body.error).toMatchObject({ code: "ALREADY_SETTLED" });
      expect(api.body.error.message).toMatch(/already answered \(accept by cli .*\); the first answer stands/);
    } else {
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/already answered \(accept by rest .*\); the first answer stands/);
    }
    expect(toolJson(await call)).toEqual({ action: "accept", content: { name: winners[0] } });
  });
});
