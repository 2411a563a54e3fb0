/**
 * mcpx as a Streamable HTTP client when an upstream closes a call's SSE stream before the
 * answer (SEP-1699 polling). mcpx resumes with GET and Last-Event-ID after the advertised
 * `retry`; when the server replays the answer the call succeeds, and when the resumption
 * cannot deliver it (the resumed stream stays silent, every resumed stream ends empty, or
 * there is no event id to resume from) the call fails within seconds, not after the whole
 * request timeout (120 s here), with an error naming the server and what happened, and the
 * upstream is told the call is cancelled. mcpx never re-sends the request: it may have had
 * effects already.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";

/** Far below the 120 s request timeout the config keeps. */
const FAILS_WITHIN_MS = 12_000;

let fixture: HttpFixture;
let host: RawStdioHost;

beforeAll(async () => {
  fixture = await startHttpFixture("resume-server.mjs", { RETRY_MS: "100" });
  host = new RawStdioHost(writeConfig({ mcpServers: { res: { url: fixture.url, transport: "streamable-http" } }, limits: { requestTimeoutSeconds: 120 } }));
  await host.initialize("2025-11-25");
  const list = await host.request("list", "tools/list");
  expect(JSON.stringify(list)).toContain("res__lose_answer");
});
afterAll(async () => {
  await host?.close();
  await fixture?.close();
});

type Frame = Record<string, unknown>;

async function call(id: string, tool: string): Promise<{ frame: Frame; ms: number }> {
  const started = Date.now();
  const frame = await host.request(id, "tools/call", { name: `res__${tool}`, arguments: {} }).catch((error: unknown) => {
    throw new Error(`no answer to ${tool}: ${String(error)}`);
  });
  return { frame, ms: Date.now() - started };
}

async function upstreamSeen(): Promise<Frame[]> {
  const { frame } = await call(`events-${Math.random()}`, "events");
  const text = (frame.result as { content: Array<{ text: string }> }).content[0]!.text;
  return JSON.parse(text) as Frame[];
}

/** The answer's error, which must name the server. */
function failure(frame: Frame): { code: number; message: string } {
  expect(frame.result, JSON.stringify(frame)).toBeUndefined();
  const error = frame.error as { code: number; message: string };
  expect(error.message).toContain('"res"');
  return error;
}

describe("an upstream that closes a call's stream before answering", () => {
  it("replays the answer on resume: the call succeeds", async () => {
    const { frame } = await call("good", "replay_answer");
    expect(frame.result).toEqual({ content: [{ type: "text", text: "answer to replay_answer" }] });
  });

  it("keeps the resumed stream open and silent: the call fails within seconds and the upstream hears cancelled", async () => {
    const { frame, ms } = await call("silent", "lose_answer");
    expect(ms).toBeLessThan(FAILS_WITHIN_MS);
    expect(failure(frame).message).toMatch(/resum/i);
    const seen = await upstreamSeen();
    expect(seen.some((event) => typeof event.resume === "string")).toBe(true);
    expect(seen.filter((event) => "cancelled" in event).length).toBeGreaterThanOrEqual(1);
  });

  it("ends every resumed stream empty: the call fails after a few attempts", async () => {
    const before = (await upstreamSeen()).filter((event) => "resume" in event).length;
    const { frame, ms } = await call("closing", "lose_closing");
    expect(ms).toBeLessThan(FAILS_WITHIN_MS);
    expect(failure(frame).message).toMatch(/resum/i);
    const resumes = (await upstreamSeen()).filter((event) => "resume" in event).length - before;
    expect(resumes).toBeGreaterThanOrEqual(1);
    expect(resumes).toBeLessThanOrEqual(5);
  });

  it("ends the POST stream with no event id to resume from: the call fails at once", async () => {
    const { frame, ms } = await call("no-id", "no_event_id");
    expect(ms).toBeLessThan(FAILS_WITHIN_MS);
    expect(failure(frame).message).toMatch(/without answering/i);
  });

  it("the upstream goes on serving after all of them", async () => {
    const { frame } = await call("after", "replay_answer");
    expect(frame.result).toEqual({ content: [{ type: "text", text: "answer to replay_answer" }] });
  });
});
