/**
 * `mcpx call SERVER.TOOL` (interface.md, "Input required"): off a terminal, a question stops
 * the command with exit 75 and the input-required document on stdout, while the call keeps
 * running; the printed `respondWith` command answers it and `mcpx result` collects the
 * result. On a terminal, the person at it is asked field by field instead. Plain calls exit
 * 0 with the result, and a tool error exits 1.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MCPX_BIN, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio } from "../relay/support.js";
import { brokerConfig, hasScript, type InputRequired, mcpxOnPath, onTerminal, runShell, storedQuestions } from "./support.js";

/** The fixture's default form (test/fixtures/asking-server.mjs). */
const DEFAULT_FORM = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1 },
    age: { type: "integer", title: "Age", minimum: 0 },
  },
  required: ["name"],
};

let config: TempConfig;
beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
});

const call = (target: string, args: string, ...rest: string[]) => runMcpx(["call", target, args, "--config", config.file, ...rest], config);

describe("mcpx call off a terminal", () => {
  it("exits 75 with the input-required document; respondWith answers it and mcpx result collects the result", async () => {
    const run = await call("ask.ask_form", "{}");
    expect(run.code, run.stderr).toBe(75);
    const document = JSON.parse(run.stdout) as InputRequired; // stdout is the document and nothing else
    expect(Object.keys(document).sort()).toEqual(["callId", "collectWith", "questions", "status"]);
    expect(document.status).toBe("input-required");
    expect(document.collectWith).toBe(`mcpx result ${document.callId}`);
    expect(document.questions).toHaveLength(1);
    const [question] = document.questions;
    expect(question).toMatchObject({ server: "ask", mode: "form", message: "Who are you?", requestedSchema: DEFAULT_FORM });
    expect(Date.parse(question!.expiresAt as string)).toBeGreaterThan(Date.now());
    // A template: the required name is a placeholder (refused as it stands), the optional age left out.
    expect(question!.respondWith).toBe(`mcpx elicit answer ${question!.id} '{"name":"<fill in: text>"}'`);
    expect((await storedQuestions(config)).find((view) => view.id === question!.id)?.state).toBe("pending");

    // Collecting too early hands the same question back.
    const early = await runMcpx(["result", document.callId], config);
    expect(early.code).toBe(75);
    expect((JSON.parse(early.stdout) as InputRequired).questions.map((asked) => asked.id)).toEqual([question!.id]);

    // The printed command line, with the values filled in, run as a person would.
    const filled = question!.respondWith.replace(`'{"name":"<fill in: text>"}'`, `'{"name":"Ada","age":36}'`);
    const answered = await runShell(filled, config, mcpxOnPath());
    expect(answered.code, answered.stderr).toBe(0);

    const result = await runMcpx(["result", document.callId], config);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
  });

  it("an upstream's -32042 is a URL question like any other: once it is done, the call is sent again and mcpx result has its result", async () => {
    const run = await call("ask.needs_url", '{"key":"cli-url"}');
    expect(run.code, run.stderr).toBe(75);
    const document = JSON.parse(run.stdout) as InputRequired;
    expect(document.questions).toHaveLength(1);
    const [question] = document.questions;
    expect(question).toMatchObject({ server: "ask", mode: "url", url: "https://example.com/connect?id=cli-url-1" });
    // The printed command is consent; it says how to mark the interaction finished, which this server never does itself.
    const consent = await runShell(question!.respondWith, config, mcpxOnPath());
    expect(consent.code, consent.stderr).toBe(0);
    expect(consent.stdout).toContain(`mcpx elicit done ${question!.id}`);
    const done = await runMcpx(["elicit", "done", question!.id], config);
    expect(done.code, done.stderr).toBe(0);
    const result = await runMcpx(["result", document.callId], config);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ key: "cli-url", calls: 2, done: true });
  });

  it("a call that asks nothing exits 0 with the result", async () => {
    const run = await call("ask.log", '{"levels":[]}');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"sent":[]}\n');

    const json = await call("ask.log", '{"levels":[]}', "--json");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ content: [{ type: "text", text: '{"sent":[]}' }] });
  });

  it("a call whose tool reports an error exits 1", async () => {
    const run = await call("ask.no_such_tool", "{}");
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/unknown tool no_such_tool/);
  });
});

describe("mcpx call on a terminal", () => {
  it.skipIf(!hasScript())("asks the person field by field and prints the result", async () => {
    const terminal = onTerminal(
      [process.execPath, MCPX_BIN, "call", "ask.ask_form", '{"message":"Who is at the terminal?"}', "--config", config.file],
      config.env,
    );
    try {
      await terminal.expectThen('server "ask" asks: Who is at the terminal?');
      await terminal.expectThen("name: ", "Grace\r");
      await terminal.expectThen("age: ", "85\r");
      await terminal.expectThen('send it to "ask"? [Y/n] ', "\r");
      await terminal.expectThen('{"action":"accept","content":{"name":"Grace","age":85}}');
      expect(await terminal.exited).toBe(0);
    } finally {
      terminal.child.kill("SIGKILL");
    }
    const stored = (await storedQuestions(config)).find((view) => view.message === "Who is at the terminal?");
    expect(stored).toMatchObject({ state: "answered", answer: { action: "accept", by: "cli", content: { name: "Grace", age: 85 } } });
  });
});
