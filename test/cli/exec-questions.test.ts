/**
 * A question raised by a tool call of `mcpx exec` belongs to the run (ELI-20): off a terminal
 * the command exits 75 with the input-required document, its callId the run's id; answered,
 * `mcpx result RUNID` collects the run's output. On a terminal the person is asked there.
 * Through the daemon and with `--no-daemon` (a runner of its own) alike.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { MCPX_BIN, type TempConfig } from "../helpers/mcpx.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";
import { runMcpx } from "../helpers/upstreams.js";
import { type InputRequired, mcpxOnPath, runShell, storedQuestions } from "../broker-e2e/support.js";
import { askingStdio } from "../relay/support.js";
import { daemonConfig, recordOf, stateOf, stopDaemons } from "./daemon-support.js";

let config: TempConfig;
beforeAll(async () => {
  // The run's deadline counts while its question waits: long enough for this machine to answer.
  config = daemonConfig({ ask: askingStdio() }, { scripts: { timeoutSeconds: 300 } });
});
afterAll(stopDaemons);

const SCRIPT = `console.log("asking");
const answer = await ask.ask_form({ message: "Which name?" });
console.log("answered: " + textOf(answer));
return "done";`;

async function runRecord(runId: string) {
  const store = SqliteStore.open(stateOf(config));
  try {
    return await store.calls.get(runId);
  } finally {
    await store.close();
  }
}

describe.each([
  ["through the daemon", [] as string[]],
  ["with --no-daemon", ["--no-daemon"]],
])("mcpx exec %s, off a terminal", (_how, flags) => {
  it("a question of one of its calls: exit 75 with the input-required document of the run; answered, mcpx result collects the run", async () => {
    const run = await runMcpx(["exec", SCRIPT, "--config", config.file, ...flags], config);
    expect(run.code, run.stderr).toBe(75);
    const document = JSON.parse(run.stdout) as InputRequired;
    expect(document).toMatchObject({ status: "input-required", collectWith: `mcpx result ${document.callId}` });
    const [question] = document.questions;
    expect(question).toMatchObject({ server: "ask", mode: "form", message: "Which name?" });
    // The question is the run's: the store has it under the run's id, and the run is a call of "mcpx".
    expect((await storedQuestions(config)).find((view) => view.id === question!.id)).toMatchObject({ callId: document.callId });
    const stored = (await runRecord(document.callId))!;
    expect(stored).toMatchObject({ server: "mcpx", tool: "exec", state: "running" });
    if (flags.length === 0) expect(stored.runnerPid).toBe(recordOf(config)!.pid);
    else {
      expect(stored.runnerPid).not.toBe(recordOf(config)?.pid);
      // The runner read its source from a 0600 file and removed it.
      expect(readdirSync(join(stateOf(config), "calls")).filter((name) => name.endsWith(".script"))).toEqual([]);
    }

    const early = await runMcpx(["result", document.callId], config);
    expect(early.code).toBe(75);
    const filled = question!.respondWith.replace(`'{"name":"<fill in: text>"}'`, `'{"name":"Ada"}'`);
    const answered = await runShell(filled, config, mcpxOnPath());
    expect(answered.code, answered.stderr).toBe(0);
    const result = await runMcpx(["result", document.callId], config);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('asking\nanswered: {"action":"accept","content":{"name":"Ada"}}\ndone\n');
    const json = await runMcpx(["result", document.callId.slice(0, 8), "--json"], config);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, value: "done", calls: [{ server: "ask", tool: "ask_form", outcome: "ok" }] });
  });
});

describe("mcpx exec on a terminal", () => {
  it.skipIf(!hasScript())("asks the person, then prints the run's output", async () => {
    const terminal = onTerminal(
      [process.execPath, MCPX_BIN, "exec", SCRIPT.replace("Which name?", "Who runs this script?"), "--config", config.file],
      config.env,
    );
    try {
      await terminal.expectThen(`server "ask" asks: Who runs this script?`);
      await terminal.expectThen("name: ", "Grace\r");
      await terminal.expectThen("age: ", "\r");
      await terminal.expectThen('send it to "ask"? [Y/n] ', "\r");
      await terminal.expectThen('answered: {"action":"accept","content":{"name":"Grace"}}');
      expect(await terminal.exited).toBe(0);
    } finally {
      terminal.child.kill("SIGKILL");
    }
  });
});
