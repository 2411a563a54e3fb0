/**
 * Terminal output is inert (issue 6 item 7): a question whose message, field titles,
 * descriptions, enum values and enum titles carry escape sequences (clear screen, retitle,
 * OSC 8 links), carriage returns and newlines that fake an "mcpx:" line, C1 controls and bidi
 * overrides is printed by `mcpx elicit list`, `show` and `watch` with none of them raw, and
 * its JSON stays the same JSON; the `mcpx call` prompt on a pseudo-terminal, in front of a
 * real upstream asking that question, shows them escaped too.
 */
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Broker } from "../../src/broker/broker.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { questionFromRequest } from "../../src/render/question.js";
import { MCPX_BIN, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";
import { openBroker } from "../helpers/questions-api.js";
import { askingStdio } from "../relay/support.js";

const CLEAR = "\x1b[2J\x1b[H";
const TITLE = "\x1b]0;pwned\x07";
const LINK = "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\";
const C1 = "\x9b31m";
const BIDI = "\u202etxt.exe\u202c \u2066iso\u2069";

const MESSAGE = `Hello${CLEAR}${TITLE}\rmcpx: all answered, nothing to do\nmcpx: second fake line ${LINK} ${C1} ${BIDI}`;
const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    name: { type: "string", title: `Name${CLEAR}`, description: `Yours${TITLE}\rmcpx: fake` },
    colour: {
      type: "string",
      oneOf: [
        { const: "r", title: `Red${C1}${BIDI}` },
        { const: `g${CLEAR}`, title: `Green${LINK}` },
      ],
    },
  },
  required: ["name"],
};

/** Raw control characters an upstream must not get onto a terminal: anything but a newline. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** An upstream line passing for mcpx's own. */
const FAKE_LINE = /(^|[\r\n])mcpx: (all answered|second fake|fake)/;

let state: TempConfig;
let broker: Broker;
let closeBroker: () => void;

// A broker of the test's own on a fresh state dir, as another process would have.
beforeEach(async () => {
  state = writeConfig({ mcpServers: {} });
  ({ broker, close: closeBroker } = openBroker(state.env.MCPX_STATE_DIR!));
});
afterEach(async () => closeBroker());

async function openHostile(): Promise<QuestionRecord> {
  const question = questionFromRequest(`hostile-${Date.now()}`, "files", "elicitation/create", { message: MESSAGE, requestedSchema: SCHEMA });
  return await broker.open(question!, { tool: `files__write${CLEAR}` }, 300);
}

function expectInert(text: string): void {
  expect(text).not.toMatch(RAW);
  expect(text).not.toMatch(FAKE_LINE);
}

describe("mcpx elicit on a question full of escape sequences", () => {
  it("show prints every one escaped, with the message's lines indented", async () => {
    const asked = await openHostile();
    const run = await runMcpx(["elicit", "show", asked.id], state);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run.stdout);
    expect(run.stdout).toContain("Hello\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\rmcpx: all answered");
    expect(run.stdout).toContain("\n          mcpx: second fake line \\x1b]8;;https://evil.example/\\x1b\\click here");
    expect(run.stdout).toContain("\\x9b31m \\u202etxt.exe\\u202c \\u2066iso\\u2069");
    expect(run.stdout).toContain("Name\\x1b[2J\\x1b[H");
    expect(run.stdout).toContain("- g\\x1b[2J\\x1b[H  (Green\\x1b]8;;");
    expect(run.stdout).toContain("during the tool call files__write\\x1b[2J");
  });

  it("list prints the message on one line, escaped", async () => {
    await openHostile();
    const run = await runMcpx(["elicit", "list"], state);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run.stdout);
    expect(run.stdout).toContain("Hello\\x1b[2J");
  });

  it("the JSON of show and list is the same JSON, with nothing raw either", async () => {
    const asked = await openHostile();
    const [show, list] = await Promise.all([runMcpx(["elicit", "show", asked.id, "--json"], state), runMcpx(["elicit", "list", "--json"], state)]);
    for (const run of [show, list]) {
      expect(run.code, run.stderr).toBe(0);
      expectInert(run.stdout);
    }
    expect(JSON.parse(show.stdout)).toMatchObject({ message: MESSAGE, requestedSchema: SCHEMA });
    expect(JSON.parse(list.stdout)).toMatchObject([{ message: MESSAGE }]);
  });

  it.each([[[] as string[]], [["--json"]]])("watch %j prints it with nothing raw", async (extra) => {
    const asked = await openHostile();
    const child = spawn(process.execPath, [MCPX_BIN, "elicit", "watch", ...extra], { env: state.env, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      let out = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`watch never showed the question; stdout: ${JSON.stringify(out)}`)), 10_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          if (out.includes(asked.id) && out.endsWith("\n")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expectInert(out);
      if (extra.length) expect(JSON.parse(out.trim())).toMatchObject({ id: asked.id, message: MESSAGE });
      else expect(out).toContain("Hello\\x1b[2J");
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("mcpx call on a terminal, asked by a real upstream", () => {
  it.skipIf(!hasScript())("prompts with the message, titles and choices escaped", async () => {
    const config = writeConfig({ mcpServers: { ask: askingStdio() }, elicitation: { ttlSeconds: 60 } });
    const args = JSON.stringify({ message: MESSAGE, schema: SCHEMA });
    const terminal = onTerminal([process.execPath, MCPX_BIN, "call", "ask.ask_form", args, "--config", config.file], config.env);
    try {
      await terminal.expectThen("Hello\\x1b[2J");
      await terminal.expectThen("name: ", "Ada\r");
      await terminal.expectThen("colour: ", "1\r");
      await terminal.expectThen("[Y/n] ", "\r");
      await terminal.expectThen('"action":"accept"');
      expect(await terminal.exited).toBe(0);
      // The terminal's own output has readline's cursor moves (CSI); the upstream's text must add nothing.
      const output = terminal.output().replace(/\r\n/g, "\n");
      expect(output).not.toMatch(FAKE_LINE);
      for (const raw of ["\x1b[2J", "\x1b]", "\x07", "\x9b", "\u202e", "\u2066", "\u2069", "\u202c"]) expect(output, JSON.stringify(raw)).not.toContain(raw);
      expect(output).toContain("\\x1b]0;pwned\\x07\\rmcpx: all answered");
      expect(output).toContain("\n  mcpx: second fake line");
      expect(output).toContain("Name\\x1b[2J\\x1b[H (name)");
      expect(output).toContain("1) r  Red\\x9b31m\\u202etxt.exe");
      expect(output).toContain("Yours\\x1b]0;pwned\\x07\\rmcpx: fake");
    } finally {
      terminal.child.kill("SIGKILL");
    }
  });
});
