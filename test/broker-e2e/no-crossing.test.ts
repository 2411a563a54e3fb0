/**
 * Questions from several upstreams and several hosts at once never cross. Two Streamable HTTP
 * upstreams (so every question travels on its own call's stream) and two hosts, each calling
 * both upstreams at the same time: four questions in flight together.
 *
 * - Hosts with elicitation: each host is asked exactly its own two questions, and each
 *   upstream call gets the answer of the host that made it.
 * - Hosts without elicitation: the four questions wait in the store, each attributed to the
 *   session that caused it; answered through REST, each call gets exactly its own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import type { HttpFixture } from "../helpers/upstreams.js";
import { httpHost, startAskingHttp, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, Rest, waitForQuestion, type QuestionView } from "./support.js";

const UPSTREAMS = ["north", "south"] as const;
type Label = "A" | "B";

let fixtures: HttpFixture[] = [];
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  fixtures = await Promise.all(UPSTREAMS.map(() => startAskingHttp()));
  config = brokerConfig(Object.fromEntries(UPSTREAMS.map((name, index) => [name, { url: fixtures[index]!.url }])));
  mcpx = await startMcpxHttp(config);
});
afterAll(async () => {
  await mcpx?.close();
  await Promise.all(fixtures.map((fixture) => fixture.close()));
});

/** The label of `host`'s call to `server` (not naming the server, so mcpx prefixes the message with it). */
const call = (label: Label, server: (typeof UPSTREAMS)[number]): string => `${label}${UPSTREAMS.indexOf(server) + 1}`;

/** Each host calls `slow_ask` on both upstreams; each upstream asks once both hosts' calls are in. */
function callBoth(hosts: Record<Label, RecordingHost>): Promise<Record<string, unknown>> {
  const calls = (["A", "B"] as const).flatMap((label) =>
    UPSTREAMS.map(async (server) => {
      const result = await hosts[label].client.callTool({ name: `${server}__slow_ask`, arguments: { label: call(label, server), together: 2 } });
      return [call(label, server), toolJson(result)] as const;
    }),
  );
  return Promise.all(calls).then(Object.fromEntries);
}

describe("two hosts with elicitation, each calling both upstreams at once", () => {
  const hosts = {} as Record<Label, RecordingHost>;
  beforeAll(async () => {
    for (const label of ["A", "B"] as const) {
      hosts[label] = await httpHost(mcpx.url, {
        name: `host-${label}`,
        capabilities: { elicitation: { form: {} } },
        // The answer names who gave it and what was asked, so a crossed question shows.
        setup: (client) =>
          client.setRequestHandler(ElicitRequestSchema, async (request) => ({
            action: "accept",
            content: { name: `${label} answers ${request.params.message}` },
          })),
      });
    }
  });
  afterAll(async () => Promise.all(Object.values(hosts).map((host) => host.close())));

  it("each host is asked only its own questions and each upstream call gets its own host's answer", async () => {
    const results = await callBoth(hosts);
    for (const label of ["A", "B"] as const) {
      for (const server of UPSTREAMS) {
        expect(results[call(label, server)]).toEqual({
          action: "accept",
          content: { name: `${label} answers [${server}] Question for ${call(label, server)}` },
        });
      }
      const asked = hosts[label].requests("elicitation/create").map((frame) => (frame.params as { message: string }).message);
      expect(asked.sort()).toEqual(UPSTREAMS.map((server) => `[${server}] Question for ${call(label, server)}`).sort());
    }
  });
});

describe("two hosts without elicitation, each calling both upstreams at once", () => {
  const hosts = {} as Record<Label, RecordingHost & { transport: { sessionId?: string } }>;
  beforeAll(async () => {
    for (const label of ["A", "B"] as const) hosts[label] = await httpHost(mcpx.url, { name: `plain-${label}`, capabilities: {} });
  });
  afterAll(async () => Promise.all(Object.values(hosts).map((host) => host.close())));

  it("the questions wait in the store attributed to the right session; REST answers reach the right calls", async () => {
    const results = callBoth(hosts);
    const rest = Rest.fromLog(mcpx.stderr());
    const questions: QuestionView[] = [];
    for (const label of ["A", "B"] as const) {
      for (const server of UPSTREAMS) {
        const message = `Question for ${call(label, server)}`;
        const question = await waitForQuestion(config, (view) => view.state === "pending" && view.message === message);
        expect(question).toMatchObject({ server, tool: "slow_ask", hostSession: hosts[label].transport.sessionId });
        questions.push(question);
      }
    }
    for (const question of questions) {
      const answered = await rest.answer(question.id, { action: "accept", content: { name: `answer to ${question.message}` } });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    }
    const settled = await results;
    for (const label of ["A", "B"] as const) {
      for (const server of UPSTREAMS) {
        expect(settled[call(label, server)]).toEqual({ action: "accept", content: { name: `answer to Question for ${call(label, server)}` } });
      }
      expect(hosts[label].requests()).toEqual([]);
    }
  });
});
