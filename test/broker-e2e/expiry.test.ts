/**
 * A question is state with a deadline: one nobody answers in time becomes `expired`, the
 * upstream gets `cancel` (never `decline`), the request still open at the calling host is
 * cancelled, and a late answer from any surface is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio, frameToolJson, isRequestFrame } from "../relay/support.js";
import { brokerConfig, elicit, elicitListAll } from "./support.js";

let config: TempConfig;
let host: RawStdioHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() }, { ttlSeconds: 1 });
  host = new RawStdioHost(config);
  await host.initialize("2025-11-25", { elicitation: { form: {} } });
});
afterAll(async () => host?.close());

describe("a question asked inline that nobody answers", () => {
  it("expires: the upstream gets cancel, the host's request is cancelled, and a late CLI answer is refused", async () => {
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Too slow" } } });
    const asked = await host.waitFor((frame) => isRequestFrame(frame, "elicitation/create"));

    const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame), 10_000);
    expect(frameToolJson(answer)).toEqual({ action: "cancel" });
    const cancelled = await host.waitFor((frame) => frame.method === "notifications/cancelled");
    expect((cancelled.params as { requestId: unknown }).requestId).toBe(asked.id);

    const [question] = await elicitListAll(config);
    expect(question).toMatchObject({ message: "Too slow", state: "expired", answer: { action: "cancel", by: "expiry" } });
    const late = await elicit(config, "answer", question!.id, "name=Late");
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/expired: nobody answered within \d+s/);
  });
});
