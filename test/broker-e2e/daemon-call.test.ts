/**
 * `mcpx call` through the daemon behaves exactly as the detached runner's call does when the
 * upstream asks (interface.md, "Input required"): off a terminal, exit 75 with the
 * input-required document; its `respondWith` answers it and `mcpx result` collects the result;
 * on a terminal the person is asked there. The question is the daemon's: attributed to the
 * call it made on its shared upstream (design rule 11).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPX_BIN, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio } from "../relay/support.js";
import { recordOf, spawnMcpx, stopDaemons, until } from "../cli/daemon-support.js";
import { brokerConfig, hasScript, type InputRequired, mcpxOnPath, onTerminal, runShell, storedQuestions } from "./support.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";

let config: TempConfig;
beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  delete config.env.MCPX_NO_DAEMON;
});
afterAll(async () => {
  await runMcpx(["daemon", "stop", "--config", config.file], config);
  await stopDaemons();
});

const call = (target: string, args: string, ...rest: string[]) => runMcpx(["call", target, args, "--config", config.file, ...rest], config);

async function runnerOf(callId: string): Promise<number | undefined> {
  const store = SqliteStore.open(config.env.MCPX_STATE_DIR!);
  try {
    return (await store.calls.get(callId))?.runnerPid;
  } finally {
    await store.close();
  }
}

describe("mcpx call through the daemon, off a terminal", () => {
  it("a question: exit 75 with the input-required document; respondWith answers it, mcpx result collects the result", async () => {
    const run = await call("ask.ask_form", "{}");
    expect(run.code, run.stderr).toBe(75);
    const document = JSON.parse(run.stdout) as InputRequired;
    expect(Object.keys(document).sort()).toEqual(["callId", "collectWith", "questions", "status"]);
    expect(document).toMatchObject({ status: "input-required", collectWith: `mcpx result ${document.callId}` });
    const [question] = document.questions;
    expect(question).toMatchObject({ server: "ask", mode: "form", message: "Who are you?" });
    expect(question!.respondWith).toBe(`mcpx elicit answer ${question!.id} '{"name":"<fill in: text>"}'`);
    // The daemon runs the call and waits on its question.
    const daemon = recordOf(config)!;
    expect(await runnerOf(document.callId)).toBe(daemon.pid);

    const early = await runMcpx(["result", document.callId], config);
    expect(early.code).toBe(75);
    expect((JSON.parse(early.stdout) as InputRequired).questions.map((asked) => asked.id)).toEqual([question!.id]);

    const filled = question!.respondWith.replace(`'{"name":"<fill in: text>"}'`, `'{"name":"Ada","age":36}'`);
    const answered = await runShell(filled, config, mcpxOnPath());
    expect(answered.code, answered.stderr).toBe(0);
    const result = await runMcpx(["result", document.callId], config);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
    expect(recordOf(config)!.pid).toBe(daemon.pid);
  });

  it("an upstream's -32042 becomes a URL question; once done, the call is sent again and mcpx result has its result", async () => {
    const run = await call("ask.needs_url", '{"key":"daemon-url"}');
    expect(run.code, run.stderr).toBe(75);
    const document = JSON.parse(run.stdout) as InputRequired;
    const [question] = document.questions;
    expect(question).toMatchObject({ server: "ask", mode: "url", url: "https://example.com/connect?id=daemon-url-1" });
    expect((await runShell(question!.respondWith, config, mcpxOnPath())).code).toBe(0);
    expect((await runMcpx(["elicit", "done", question!.id], config)).code).toBe(0);
    const result = await runMcpx(["result", document.callId], config);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ key: "daemon-url", calls: 2, done: true });
  });

  it("a tool error exits 1 with the tool's text", async () => {
    const run = await call("ask.no_such_tool", "{}");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/unknown tool no_such_tool/);
  });
});

describe("two calls through the daemon in flight on one stdio connection", () => {
  it("a question neither can be proven to own: each command says so and waits; answered elsewhere, both end", async () => {
    // The fixture asks once both calls are in flight.
    const first = spawnMcpx(["call", "ask.slow_ask", '{"label":"A","together":2}', "--config", config.file], config);
    const second = spawnMcpx(["call", "ask.slow_ask", '{"label":"B","together":2}', "--config", config.file], config);
    const pending = await until("both questions", async () => {
      const views = (await storedQuestions(config)).filter((view) => view.state === "pending" && view.message.startsWith("Question for "));
      return views.length === 2 ? views : undefined;
    });
    await until("both commands to say they wait", () =>
      [first, second].every((command) => /asked a question while more than one call to it was in flight/.test(command.stderr())) ? true : undefined,
    );
    expect(first.child.exitCode).toBeNull();
    for (const view of pending) {
      const answered = await runMcpx(["elicit", "answer", view.id, '{"name":"Either"}'], config);
      expect(answered.code, answered.stderr).toBe(0);
    }
    expect(await first.exited).toBe(0);
    expect(await second.exited).toBe(0);
    expect(JSON.parse(first.stdout())).toEqual({ action: "accept", content: { name: "Either" } });
  });
});

describe("mcpx call through the daemon, on a terminal", () => {
  it.skipIf(!hasScript())("asks the person field by field and prints the result", async () => {
    const terminal = onTerminal(
      [process.execPath, MCPX_BIN, "call", "ask.ask_form", '{"message":"Who is at the daemon\'s terminal?"}', "--config", config.file],
      config.env,
    );
    try {
      await terminal.expectThen(`server "ask" asks: Who is at the daemon's terminal?`);
      await terminal.expectThen("name: ", "Grace\r");
      await terminal.expectThen("age: ", "85\r");
      await terminal.expectThen('send it to "ask"? [Y/n] ', "\r");
      await terminal.expectThen('{"action":"accept","content":{"name":"Grace","age":85}}');
      expect(await terminal.exited).toBe(0);
    } finally {
      terminal.child.kill("SIGKILL");
    }
    const stored = (await storedQuestions(config)).find((view) => view.message === "Who is at the daemon's terminal?");
    expect(stored).toMatchObject({ state: "answered", answer: { action: "accept", by: "cli" } });
  });
});
