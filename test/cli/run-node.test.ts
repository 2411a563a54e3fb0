/**
 * `mcpx run FILE.ts --runtime node` (docs/scripts.md): the person's own script in Node, in
 * their folder, with Node's APIs and the same globals; each tool call still made by mcpx
 * (a call of its own in the store), a question of one asked off a terminal on stderr and
 * waited for. The TypeScript made JavaScript into a temp file that is gone afterwards.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { TempConfig } from "../helpers/mcpx.js";
import { nodeServer } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio } from "../relay/support.js";
import { storedQuestions } from "../broker-e2e/support.js";
import { daemonConfig, spawnMcpx, stateOf, stopDaemons, until } from "./daemon-support.js";

let config: TempConfig;
beforeAll(async () => {
  config = daemonConfig({ issues: nodeServer("issues-server.mjs"), ask: askingStdio() });
});
afterAll(stopDaemons);

const SCRIPT = `import { readFileSync } from "node:fs";
const note: string = readFileSync("note.txt", "utf8").trim();
const found = await issues.search_issues({ query: "billing" });
console.log(note, found.items.length, args.join(","), typeof process.pid);
try {
  await issues.fail({ message: "nope" });
} catch (error) {
  console.error(error instanceof ToolError, error.server, error.tool, error.message);
}
process.exitCode = Number(args[0] ?? 0);
`;

async function callsOf(server: string) {
  const store = SqliteStore.open(stateOf(config));
  try {
    return (await Promise.all((await store.calls.idsStartingWith("", 1000)).map(async (id) => (await store.calls.get(id))!))).filter(
      (call) => call.server === server,
    );
  } finally {
    await store.close();
  }
}

describe("mcpx run --runtime node", () => {
  it("runs the script in Node in the person's folder, with Node's APIs and the tools through mcpx; its exit code is the command's; no temp file is left", async () => {
    writeFileSync(join(config.dir, "note.txt"), "from the folder\n");
    writeFileSync(join(config.dir, "script.ts"), SCRIPT);
    const command = spawnMcpx(["run", "script.ts", "--runtime", "node", "--config", config.file, "--", "3", "x"], config, config.dir);
    expect(await command.exited, command.stderr()).toBe(3);
    expect(command.stdout()).toBe("from the folder 10 3,x number\n");
    expect(command.stderr()).toContain("true issues fail issues.fail: nope\n");
    expect(readdirSync(config.dir).filter((name) => name.includes(".mcpx-"))).toEqual([]);
    // Each tool call was a call of its own, made by mcpx.
    expect((await callsOf("issues")).map((call) => [call.tool, call.state])).toEqual([
      ["search_issues", "done"],
      ["fail", "done"],
    ]);
  });

  it("--json: the envelope with what it printed and its calls", async () => {
    writeFileSync(join(config.dir, "note.txt"), "json\n");
    writeFileSync(join(config.dir, "script.ts"), SCRIPT);
    const command = spawnMcpx(["run", "script.ts", "--runtime", "node", "--json", "--config", config.file], config, config.dir);
    expect(await command.exited, command.stderr()).toBe(0);
    expect(JSON.parse(command.stdout())).toMatchObject({
      ok: true,
      output: "json 10  number\n",
      stderr: "true issues fail issues.fail: nope\n",
      calls: [
        { server: "issues", tool: "search_issues", outcome: "ok" },
        { server: "issues", tool: "fail", outcome: "tool error" },
      ],
    });
  });

  it("--no-daemon: the calls are made by a gateway in the command's own process, as mcpx call --no-daemon's are by its runner", async () => {
    writeFileSync(join(config.dir, "note.txt"), "alone\n");
    writeFileSync(join(config.dir, "script.ts"), SCRIPT);
    const before = (await callsOf("issues")).length;
    const command = spawnMcpx(["run", "script.ts", "--runtime", "node", "--no-daemon", "--config", config.file], config, config.dir);
    expect(await command.exited, command.stderr()).toBe(0);
    expect(command.stdout()).toBe("alone 10  number\n");
    const made = (await callsOf("issues")).slice(before);
    expect(made.map((call) => call.tool)).toEqual(["search_issues", "fail"]);
    expect(new Set(made.map((call) => call.runnerPid))).toEqual(new Set([command.child.pid]));
  });

  it("off a terminal, a question of one of its calls is put on stderr and waited for; answered elsewhere, the script goes on", async () => {
    const code = 'const answer = await ask.ask_form({ message: "Node asks?" });\nconsole.log(textOf(answer));\n';
    const command = spawnMcpx(["exec", code, "--runtime", "node", "--config", config.file], config, config.dir);
    const question = await until("the question", async () =>
      (await storedQuestions(config)).find((view) => view.message === "Node asks?" && view.state === "pending"),
    );
    await until("the command to say it waits", () => (command.stderr().includes('"status": "input-required"') ? true : undefined));
    const answered = await runMcpx(["elicit", "answer", question.id, '{"name":"Lin"}'], config);
    expect(answered.code, answered.stderr).toBe(0);
    expect(await command.exited, command.stderr()).toBe(0);
    expect(command.stdout()).toBe('{"action":"accept","content":{"name":"Lin"}}\n');
  });
});
