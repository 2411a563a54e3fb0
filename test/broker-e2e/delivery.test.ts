/**
 * An answer is reported sent only once the process waiting on the question has handed it to
 * the upstream. Behind a real `mcpx serve` (stdio) with a real upstream, answered from the CLI
 * and REST (`mcpx ui`, another process): while serve is stopped (SIGSTOP) the answer is
 * "recorded; waiting for delivery" (`delivery: "pending"`), after SIGCONT it is delivered and
 * the call completes; when serve is killed before it took the answer, "not delivered".
 */
import { afterEach, describe, expect, it } from "vitest";
import { RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { startUi, type RunningUi } from "../helpers/questions-api.js";
import { firstText } from "../helpers/upstreams.js";
import { askingStdio } from "../relay/support.js";
import { brokerConfig, elicit, pendingFrom, Rest, stateDirOf, storedQuestions, waitForQuestion } from "./support.js";

let host: RawStdioHost | undefined;
let ui: RunningUi | undefined;

afterEach(async () => {
  const child = host?.running.child;
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGCONT");
  await host?.close();
  await ui?.close();
  host = undefined;
  ui = undefined;
});

/** A serve whose host (declaring no elicitation) made a call that now waits on a question in the store. */
async function waitingCall(config: TempConfig, message: string): Promise<{ id: string; pid: number }> {
  host = new RawStdioHost(config);
  await host.initialize("2025-11-25", {});
  host.send({ jsonrpc: "2.0", id: "call", method: "tools/call", params: { name: "ask__ask_form", arguments: { message } } });
  const question = await waitForQuestion(config, pendingFrom("ask", message));
  return { id: question.id, pid: host.running.child.pid! };
}

describe("delivery of an answer", () => {
  it("CLI: recorded and waiting while serve is stopped; delivered once it runs again", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const { id, pid } = await waitingCall(config, "Stopped serve");
    process.kill(pid, "SIGSTOP");

    const run = await elicit(config, "answer", id, '{"name":"Ada"}');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`accept for question ${id} from "ask"`);
    expect(run.stdout).toContain("recorded; waiting for delivery");
    expect(run.stdout).not.toMatch(/\bsent\b/);
    expect((await storedQuestions(config)).find((view) => view.id === id)).toMatchObject({ state: "answered", delivery: "pending" });

    process.kill(pid, "SIGCONT");
    const answer = await host!.waitFor((frame) => frame.id === "call");
    expect(JSON.parse(firstText(answer))).toEqual({ action: "accept", content: { name: "Ada" } });
    const shown = await elicit(config, "show", id, "--json");
    expect(JSON.parse(shown.stdout)).toMatchObject({ state: "answered", delivery: "delivered" });
  });

  it("CLI --json and REST say delivery: delivered when serve takes the answer", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const { id } = await waitingCall(config, "Running serve");
    const run = await elicit(config, "answer", id, '{"name":"Bo"}', "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id, state: "answered", delivery: "delivered" });

    host!.send({ jsonrpc: "2.0", id: "again", method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Over REST" } } });
    const second = await waitForQuestion(config, pendingFrom("ask", "Over REST"));
    ui = await startUi(stateDirOf(config));
    const rest = new Rest(ui.base, ui.token);
    const answered = await rest.answer(second.id, { action: "decline" });
    expect(answered).toMatchObject({ status: 200, body: { state: "answered", delivery: "delivered" } });
  });

  it("REST: pending while serve is stopped, then delivered", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const { id, pid } = await waitingCall(config, "REST to a stopped serve");
    ui = await startUi(stateDirOf(config));
    const rest = new Rest(ui.base, ui.token);
    process.kill(pid, "SIGSTOP");
    const answered = await rest.answer(id, { action: "accept", content: { name: "Cy" } });
    expect(answered).toMatchObject({ status: 200, body: { state: "answered", delivery: "pending" } });
    process.kill(pid, "SIGCONT");
    await host!.waitFor((frame) => frame.id === "call");
    expect((await rest.get(`/v1/questions/${id}`)).body).toMatchObject({ delivery: "delivered" });
  });

  it("CLI: serve killed before it took the answer: not delivered, the call is gone", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const { id, pid } = await waitingCall(config, "Killed serve");
    process.kill(pid, "SIGSTOP");
    const running = elicit(config, "answer", id, '{"name":"Di"}');
    await waitForQuestion(config, (view) => view.id === id && view.state === "answered");
    process.kill(pid, "SIGKILL");

    const run = await running;
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("not delivered: the call is gone");
    expect(run.stdout).not.toMatch(/\bsent\b/);
    expect((await storedQuestions(config)).find((view) => view.id === id)).toMatchObject({ state: "answered", delivery: "undeliverable" });
  });
});
