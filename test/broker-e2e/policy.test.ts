/**
 * Policy rules and modes from the config, through a real gateway: each rule action reaches the
 * upstream (accept with content, acceptDefaults, decline, cancel), every firing is logged with
 * the rule, and a password question is answered only by a rule that names both its server and
 * the password field. The host here has no elicitation, so a question no rule answers waits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TempConfig } from "../helpers/mcpx.js";
import { logRecords, type LogRecord } from "../helpers/upstreams.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, storedQuestions, waitForQuestion } from "./support.js";

const RULES = [
  { match: { server: "ask", fields: ["color"] }, action: "accept", content: { color: "blue" }, reason: "colour is always blue" },
  { match: { server: "ask", fields: ["size"] }, action: "acceptDefaults", reason: "sizes take their defaults" },
  { match: { server: "ask", fields: ["newsletter"] }, action: "decline", reason: "never subscribe" },
  { match: { server: "ask", fields: ["later"] }, action: "cancel", reason: "not now" },
  // Neither of these may answer a password question: one names no server, one not the field.
  { match: { fields: ["password"] }, action: "accept", content: { password: "guessed" }, reason: "too broad" },
  { match: { server: "vault", fields: ["user"] }, action: "accept", content: { user: "ada", password: "guessed" }, reason: "misses the field" },
  { match: { server: "vault", fields: ["pin"] }, action: "accept", content: { pin: "1234" }, reason: "the vault pin is known" },
];

const form = (properties: object) => ({ type: "object", properties });

/** mcpx's stderr may trail the answer on its stdout: wait (bounded) until `find` finds the line. */
async function untilLogged(host: { log(): string }, find: () => LogRecord | undefined | Promise<LogRecord | undefined>, what: string): Promise<LogRecord> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const line = await find();
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`mcpx never logged ${what}; log:\n${host.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("policy rules through the gateway", () => {
  let config: TempConfig;
  let host: RecordingHost & { log(): string };
  beforeAll(async () => {
    config = brokerConfig({ ask: askingStdio(), vault: askingStdio() }, { rules: RULES });
    host = await stdioHost(config, { capabilities: {} });
  });
  afterAll(async () => host?.close());

  const ask = async (server: string, message: string, properties: object): Promise<unknown> =>
    toolJson(await host.client.callTool({ name: `${server}__ask_form`, arguments: { message, schema: form(properties) } }));

  /** The log line for the firing on the question with this message (found through the store). */
  const firing = async (message: string): Promise<LogRecord | undefined> => {
    const question = (await storedQuestions(config)).find((view) => view.message === message);
    return logRecords(host.log()).find((record) => record.msg === "policy rule fired" && record.question === question?.id);
  };
  const fired = (message: string): Promise<LogRecord> => untilLogged(host, () => firing(message), `"policy rule fired" for ${message}`);

  it.each([
    ["accept with content", "Pick a colour", { color: { type: "string" } }, { action: "accept", content: { color: "blue" } }, 0],
    [
      "acceptDefaults",
      "Pick a size",
      { size: { type: "string", enum: ["s", "m", "l"], default: "m" }, count: { type: "integer", default: 2 }, note: { type: "string" } },
      { action: "accept", content: { size: "m", count: 2 } },
      1,
    ],
    ["decline", "Subscribe?", { newsletter: { type: "boolean" } }, { action: "decline" }, 2],
    ["cancel", "Decide later", { later: { type: "string" } }, { action: "cancel" }, 3],
  ])("%s: the upstream gets the rule's answer, the store says which rule, the log names it", async (_name, message, properties, expected, rule) => {
    expect(await ask("ask", message, properties)).toEqual(expected);

    const stored = (await storedQuestions(config)).find((view) => view.message === message);
    expect(stored).toMatchObject({ state: "answered", answer: { action: expected.action, by: `rule:${rule}` } });
    expect(await fired(message)).toMatchObject({ level: "info", server: "ask", rule, action: expected.action, reason: RULES[rule]!.reason });
  });

  it("a password question is not answered by rules that do not name its server and the field: it waits", async () => {
    const call = ask("vault", "Sign in", { user: { type: "string" }, password: { type: "string", format: "password" } });
    const question = await waitForQuestion(config, (view) => view.message === "Sign in");
    expect(question).toMatchObject({ state: "pending", audience: "person" });
    expect(await firing("Sign in")).toBeUndefined();

    const run = await elicit(config, "cancel", question.id);
    expect(run.code, run.stderr).toBe(0);
    expect(await call).toEqual({ action: "cancel" });
  });

  it("a rule naming the server and the password field answers it", async () => {
    expect(await ask("vault", "Unlock", { pin: { type: "string", format: "password" } })).toEqual({ action: "accept", content: { pin: "1234" } });
    expect(await fired("Unlock")).toMatchObject({ server: "vault", rule: 6, reason: "the vault pin is known" });
  });
});

describe("elicitation.mode when no rule answers", () => {
  const hosts: Array<RecordingHost & { log(): string }> = [];
  afterAll(async () => Promise.all(hosts.map((host) => host.close())));

  const callWithMode = async (mode: string, rules: object[] = []): Promise<{ outcome: unknown; host: { log(): string }; config: TempConfig }> => {
    const config = brokerConfig({ ask: askingStdio() }, { mode, ...(rules.length ? { rules } : {}) });
    const host = await stdioHost(config, { capabilities: {} });
    hosts.push(host);
    const outcome = toolJson(await host.client.callTool({ name: "ask__ask_form", arguments: {} }));
    return { outcome, host, config };
  };

  it.each([
    ["auto", { action: "cancel" }],
    ["decline", { action: "decline" }],
  ])("%s: the upstream gets %j at once and the store records the policy", async (mode, expected) => {
    const { outcome, config } = await callWithMode(mode);
    expect(outcome).toEqual(expected);
    expect(await storedQuestions(config)).toMatchObject([{ state: "answered", answer: { action: expected.action, by: `policy:${mode}` } }]);
  });

  it("a matching rule whose answer does not fit (acceptDefaults, a required field without default) leaves it to the mode", async () => {
    // ask_form's default schema requires "name", which has no default.
    const { outcome, host, config } = await callWithMode("auto", [{ match: { server: "ask" }, action: "acceptDefaults", reason: "defaults" }]);
    expect(outcome).toEqual({ action: "cancel" });
    expect(await storedQuestions(config)).toMatchObject([{ state: "answered", answer: { action: "cancel", by: "policy:auto" } }]);
    const warning = (): LogRecord | undefined =>
      logRecords(host.log()).find((record) => record.msg.startsWith("policy rule matched but its answer does not fit"));
    await untilLogged(host, warning, "the misfit warning");
  });

  it("error: the upstream's request fails, with a message saying mcpx refuses questions", async () => {
    const { outcome, host, config } = await callWithMode("error");
    const error = (outcome as { error?: { code: number; message: string } }).error;
    expect(error?.code).toBe(-32603);
    expect(error?.message).toMatch(/elicitation\.mode is "error"/);
    const refusal = (): LogRecord | undefined =>
      logRecords(host.log()).find((record) => record.level === "warn" && record.msg.includes("elicitation.mode is error"));
    await untilLogged(host, refusal, "the refusal");
    expect(await storedQuestions(config)).toEqual([]);
  });
});
