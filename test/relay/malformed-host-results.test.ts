/**
 * A calling host that answers a question inline with a result the protocol does not allow
 * (no valid action, a decline or cancel with content, content that is not a form's values)
 * settles nothing: the question stays open for other answerers, the host is told why in a
 * warning on its call's stream, and the answer given elsewhere is what the upstream gets.
 * Content that merely misses the requestedSchema is relayed as given (design rule 8).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { silentLogger } from "../../src/util/log.js";
import { RawStdioHost } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";
import { brokerConfig, stateDirOf, storedQuestions } from "../broker-e2e/support.js";
import { askingStdio } from "./support.js";

const MALFORMED: Array<[string, object]> = [
  ["an unknown action", { action: "bogus" }],
  ["an action in capitals", { action: "ACCEPT" }],
  ["a numeric action", { action: 1 }],
  ["no action", {}],
  ["a decline with content", { action: "decline", content: { name: "Ada" } }],
  ["a cancel with empty content", { action: "cancel", content: {} }],
  ["content that is a string", { action: "accept", content: "Ada" }],
  ["a field that is an object", { action: "accept", content: { name: { first: "Ada" } } }],
  ["a field that is null", { action: "accept", content: { name: null } }],
  ["a list with a number", { action: "accept", content: { name: ["Ada", 1] } }],
];

const config = brokerConfig({ ask: askingStdio() });
let host: RawStdioHost;
let store: SqliteStore;
let broker: Broker;
let serial = 0;

beforeAll(async () => {
  host = new RawStdioHost(config);
  await host.initialize("2025-11-25", { elicitation: {} });
  store = SqliteStore.open(stateDirOf(config));
  broker = new Broker(store, silentLogger);
});
afterAll(async () => {
  await store?.close();
  await host?.close();
});

/** Make a call whose question comes to the host; returns the call's id and the host's request. */
async function askTheHost(): Promise<{ callId: string; request: Record<string, unknown> }> {
  const callId = `call-${++serial}`;
  const from = host.frames.length;
  host.send({ jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: `Question ${serial}` } } });
  const request = await host.waitFor((frame) => host.frames.indexOf(frame) >= from && frame.method === "elicitation/create");
  return { callId, request };
}

describe("a malformed inline result from the calling host", () => {
  it.each(MALFORMED)("%s: refused, the host is warned, the question stays open for the CLI", async (_name, result) => {
    const { callId, request } = await askTheHost();
    const from = host.frames.length;
    host.send({ jsonrpc: "2.0", id: request.id, result });

    const warning = await host.waitFor((frame) => host.frames.indexOf(frame) >= from && frame.method === "notifications/message");
    expectValidToClient("2025-11-25", warning);
    const params = warning.params as { level: string; data: { message: string; question: string; reason: string } };
    expect(params.level).toBe("warning");
    expect(params.data.reason).toMatch(/^not an ElicitResult: /);
    const question = (await storedQuestions(config)).find((view) => view.id === params.data.question);
    expect(question).toMatchObject({ state: "pending", server: "ask", message: `Question ${serial}` });
    expect(params.data.message).toContain(question!.id);

    // Answered on another surface: that answer is what the upstream gets.
    await broker.answer(question!.id, { action: "decline" }, { by: "cli" });
    const answer = await host.waitFor((frame) => frame.id === callId && !("method" in frame));
    expect(JSON.parse(firstText(answer))).toEqual({ action: "decline" });
  });

  it("content that only misses the requested schema is relayed as given", async () => {
    const { callId, request } = await askTheHost();
    host.send({ jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { age: "old" } } });
    const answer = await host.waitFor((frame) => frame.id === callId && !("method" in frame));
    expect(JSON.parse(firstText(answer))).toEqual({ action: "accept", content: { age: "old" } });
  });
});
