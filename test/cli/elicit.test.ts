/**
 * `mcpx elicit …` as a person uses it: the real CLI in child processes, on a state dir where
 * this test process (a second, independent mcpx process) opens questions through the broker
 * and waits on them, exactly as `mcpx serve` would.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { questionFromRequest } from "../../src/render/question.js";
import { silentLogger } from "../../src/util/log.js";
import { MCPX_BIN, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";

const PROFILE: JsonObject = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", description: "as it should appear" },
    age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
    score: { type: "number" },
    ok: { type: "boolean", default: true },
    color: {
      type: "string",
      oneOf: [
        { const: "r", title: "Red" },
        { const: "g", title: "Green" },
      ],
    },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } },
  },
  required: ["name", "age"],
};

let state: TempConfig;
let store: SqliteStore;
let broker: Broker;
let serial = 0;

beforeEach(async () => {
  state = writeConfig({ mcpServers: {} }); // only for its private MCPX_STATE_DIR: elicit reads no config
  store = SqliteStore.open(state.env.MCPX_STATE_DIR!);
  broker = new Broker(store, silentLogger);
});

afterEach(async () => {
  await broker.stop();
  await store.close();
});

/** As `mcpx serve` does: once the question is settled, hand the answer over and record its delivery. */
function delivering(record: QuestionRecord): QuestionRecord {
  void broker
    .wait(record.id)
    .then(
      (settled) => broker.delivered(settled.id),
      () => {},
    )
    .catch(() => {}); // the store may be closed by then
  return record;
}

async function openForm(schema: JsonObject = PROFILE, options: { message?: string; tool?: string; ttl?: number } = {}): Promise<QuestionRecord> {
  const id = `form-${++serial}`;
  const question = questionFromRequest(id, "files", "elicitation/create", { message: options.message ?? "Who are you?", requestedSchema: schema });
  return delivering(await broker.open(question!, options.tool ? { tool: options.tool } : {}, options.ttl ?? 300));
}

async function openUrl(url: string): Promise<QuestionRecord> {
  const id = `url-${++serial}`;
  const question = questionFromRequest(id, "auth", "elicitation/create", { mode: "url", message: "Sign in to continue", url, elicitationId: id });
  return delivering(await broker.open(question!, {}, 300));
}

function elicit(...args: string[]): ReturnType<typeof runMcpx> {
  return runMcpx(["elicit", ...args], state);
}

describe("mcpx elicit list and show", () => {
  it("lists pending questions as JSON in the shape interface.md promises, and as a table", async () => {
    const form = await openForm(PROFILE, { tool: "files__write" });
    const url = await openUrl("https://example.com/login?next=%2F");

    const [json, table] = await Promise.all([elicit("list", "--json"), elicit("list")]);
    expect(json.code).toBe(0);
    const views = JSON.parse(json.stdout) as JsonObject[];
    expect(views.map((view) => view.id)).toEqual([form.id, url.id]);
    expect(views[0]).toMatchObject({
      id: form.id,
      server: "files",
      mode: "form",
      message: "Who are you?",
      requestedSchema: PROFILE,
      state: "pending",
      createdAt: form.createdAt,
      expiresAt: form.expiresAt,
      answer: null,
      tool: "files__write",
    });
    expect(views[0]).not.toHaveProperty("url");
    expect(views[1]).toMatchObject({
      id: url.id,
      server: "auth",
      mode: "url",
      url: "https://example.com/login?next=%2F",
      state: "pending",
      audience: "person",
    });
    expect(views[1]).not.toHaveProperty("requestedSchema");

    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+SERVER\s+KIND\s+AUDIENCE\s+EXPIRES IN\s+MESSAGE$/m);
    expect(table.stdout).toMatch(new RegExp(`^${form.id}\\s+files\\s+form\\s+agent\\s+[45]m \\d\\ds\\s+Who are you\\?$`, "m"));
    expect(table.stdout).toMatch(new RegExp(`^${url.id}\\s+auth\\s+url\\s+person\\s+[45]m \\d\\ds\\s+Sign in to continue$`, "m"));
  });

  it("shows a form question with who asks, its fields, choices with titles, defaults and what is required", async () => {
    const form = await openForm(PROFILE, { tool: "files__write" });
    const [run, json] = await Promise.all([elicit("show", form.id), elicit("show", form.id, "--json")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`server "files", during the tool call files__write`);
    expect(run.stdout).toContain("message   Who are you?");
    expect(run.stdout).toMatch(/audience\s+a person or an agent: nothing in it needs a person/);
    expect(run.stdout).toMatch(/pending, expires in [45]m \d\ds/);
    expect(run.stdout).toMatch(/^ {2}name {2}\(text; required\)$/m);
    expect(run.stdout).toContain("Your name: as it should appear");
    expect(run.stdout).toMatch(/^ {2}age {2}\(integer, 0\.\.150; required; default 30\)$/m);
    expect(run.stdout).toMatch(/^ {2}ok {2}\(yes\/no; optional; default yes\)$/m);
    expect(run.stdout).toMatch(/^ {6}- g {2}\(Green\)$/m);
    expect(run.stdout).toMatch(/^ {2}tags {2}\(choose any, comma-separated; optional\)$/m);
    expect(run.stdout).toContain(`mcpx elicit answer ${form.id} name=… age=…`);

    expect(JSON.parse(json.stdout)).toMatchObject({ id: form.id, mode: "form", requestedSchema: PROFILE, state: "pending", answer: null });
  });

  it("shows a URL in full with its host, warns of punycode, and tells the person to open it themselves", async () => {
    const plain = await openUrl("https://example.com/oauth/authorize?client_id=abc&state=xyz");
    const spoof = await openUrl("https://xn--exmple-cua.com/login");
    const [run, warned] = await Promise.all([elicit("show", plain.id), elicit("show", spoof.id)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("url       https://example.com/oauth/authorize?client_id=abc&state=xyz");
    expect(run.stdout).toMatch(/^host {6}example\.com$/m);
    expect(run.stdout).not.toContain("punycode");
    expect(run.stdout).toContain(`mcpx elicit accept ${plain.id}  (you consent; the server may then wait for you at the URL)`);
    expect(run.stdout).toContain(`mcpx elicit done ${plain.id}    (you have completed it in your browser)`);
    expect(run.stdout).toMatch(/^progress {2}\[opened\] \/ consented \/ completed$/m);
    expect(run.stdout).toMatch(/audience\s+a person only/);

    expect(warned.stdout).toMatch(/^host {6}xn--exmple-cua\.com$/m);
    expect(warned.stdout).toMatch(/^warning .*punycode \(xn--\).*"exämple\.com"/m);
  });

  it("with --all also lists answered and expired questions, which plain list leaves out", async () => {
    const answered = await openForm();
    await broker.answer(answered.id, { action: "decline" }, { by: "test" });
    const expiring = await openForm(PROFILE, { ttl: 0.05 });
    expect((await broker.wait(expiring.id)).state).toBe("expired");
    const pending = await openForm();

    const [plainRun, allRun, table] = await Promise.all([elicit("list", "--json"), elicit("list", "--all", "--json"), elicit("list", "--all")]);
    const plain = JSON.parse(plainRun.stdout) as JsonObject[];
    expect(plain.map((view) => view.id)).toEqual([pending.id]);

    const all = JSON.parse(allRun.stdout) as JsonObject[];
    expect(all.map((view) => [view.id, view.state])).toEqual([
      [answered.id, "answered"],
      [expiring.id, "expired"],
      [pending.id, "pending"],
    ]);
    expect(all[0]?.answer).toMatchObject({ action: "decline", by: "test" });
    expect(all[1]?.answer).toMatchObject({ action: "cancel", by: "expiry" });

    expect(table.stdout).toMatch(/^ID\s+SERVER\s+KIND\s+AUDIENCE\s+STATE\s+EXPIRES IN\s+WHY\s+MESSAGE$/m);
    expect(table.stdout).toMatch(new RegExp(`^${expiring.id}\\s+files\\s+form\\s+agent\\s+expired\\s+-\\s+expired: nobody answered within \\d+s\\s`, "m"));
  });

  it("exits 1 for an unknown id, naming it", async () => {
    const runs = await Promise.all([elicit("show", "no-such-question"), elicit("answer", "no-such-question", "name=x"), elicit("decline", "no-such-question")]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("no question with id no-such-question");
    }
  });
});

describe("mcpx elicit answer, accept, decline, cancel", () => {
  it("answers with JSON content, and the waiting process learns it within a fraction of a second", async () => {
    const form = await openForm();
    const waited = broker.wait(form.id).then((record) => ({ record, at: Date.now() }));
    const run = await elicit("answer", form.id, '{"name":"Ada","age":36,"tags":["b"]}');
    const exitedAt = Date.now();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`accept sent for question ${form.id} from "files"`);
    const { record, at } = await waited;
    expect(at - exitedAt).toBeLessThan(750); // noticed through the store, not by this process's own write
    expect(record.state).toBe("answered");
    expect(record.answer).toMatchObject({ action: "accept", by: "cli", content: { name: "Ada", age: 36, tags: ["b"] } });
  });

  it("types key=value pairs by the schema: numbers, booleans, lists", async () => {
    const form = await openForm();
    const second = await openForm();
    const [run, secondRun] = await Promise.all([
      elicit("answer", form.id, "name=Ada Lovelace", "age=36", "score=9.5", "ok=no", "tags=a, c", "color=g", "--json"),
      elicit("answer", second.id, "name=Bo", "age=7", "ok=yes", 'tags=["b"]'),
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: form.id, state: "answered", answer: { action: "accept", by: "cli" } });
    expect((await store.questions.get(form.id))?.answer?.content).toEqual({
      name: "Ada Lovelace",
      age: 36,
      score: 9.5,
      ok: false,
      tags: ["a", "c"],
      color: "g",
    });

    expect(secondRun.code).toBe(0);
    expect((await store.questions.get(second.id))?.answer?.content).toEqual({ name: "Bo", age: 7, ok: true, tags: ["b"] });
  });

  it("gives a field left out of key=value pairs its schema default, required or not, as the page and the prompt do", async () => {
    const form = await openForm();
    const run = await elicit("answer", form.id, "name=Ada");
    expect(run.code, run.stderr).toBe(0);
    // age (required) and ok (optional) have defaults; score, color and tags have none and stay out.
    expect((await store.questions.get(form.id))?.answer?.content).toEqual({ name: "Ada", age: 30, ok: true });
  });

  it("refuses an answer that does not fit, naming the field, and leaves the question pending", async () => {
    const form = await openForm();
    const cases: Array<[string[], RegExp]> = [
      [["name=Ada", "age=abc"], /field "age" must be a number, got "abc"/],
      [["name=Ada", "age=200"], /field "age" must be <= 150/],
      [["name=Ada", "age=3.5"], /field "age" must be integer/],
      [["name=Ada", "age=3", "ok=perhaps"], /field "ok" must be yes or no/],
      [["name=Ada", "age=3", "tags=a,z"], /field "tags.1" must be one of "a", "b", "c"/],
      [['{"age":3}'], /missing required field "name"/],
      [['{"name":"Ada","age":"36"}'], /field "age" must be integer/], // JSON is taken as typed
      [["name=Ada", "agee=3"], /unknown field "agee"; the question asks for: name, age/],
    ];
    const runs = await Promise.all(cases.map(([args]) => elicit("answer", form.id, ...args)));
    runs.forEach((run, index) => {
      const [args, message] = cases[index]!;
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect((await store.questions.get(form.id))?.state).toBe("pending");
  });

  it("keeps the first answer: a second one exits 1 saying it is already answered", async () => {
    const form = await openForm();
    expect((await elicit("answer", form.id, "name=Ada", "age=36")).code).toBe(0);
    const again = await elicit("decline", form.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already answered \(accept by cli/);
    expect((await store.questions.get(form.id))?.answer).toMatchObject({ action: "accept", content: { name: "Ada", age: 36 } });
  });

  it("accepts a URL question without content (a person-only question: the CLI is a person's surface)", async () => {
    const url = await openUrl("https://example.com/consent");
    expect(url.audience).toBe("person");
    const run = await elicit("accept", url.id);
    expect(run.code).toBe(0);
    const record = (await store.questions.get(url.id))!;
    expect(record.state).toBe("answered");
    expect(record.answer).toMatchObject({ action: "accept", by: "cli" });
    expect(record.answer?.content).toBeUndefined();
  });

  it("records decline and cancel distinctly", async () => {
    const declined = await openForm();
    const cancelled = await openUrl("https://example.com/x");
    const runs = await Promise.all([elicit("decline", declined.id), elicit("cancel", cancelled.id)]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect((await store.questions.get(declined.id))?.answer).toMatchObject({ action: "decline", by: "cli" });
    expect((await store.questions.get(cancelled.id))?.answer).toMatchObject({ action: "cancel", by: "cli" });
  });

  it("finds a question by a unique prefix of its id", async () => {
    const form = await openForm();
    const run = await elicit("show", form.id.slice(0, -1), "--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: form.id });
  });

  it("exits 2 for usage errors: no content without a terminal, a bad pair, bad JSON, no subcommand", async () => {
    const form = await openForm();
    const [noContent, notAPair, badJson, bare] = await Promise.all([
      elicit("answer", form.id),
      elicit("answer", form.id, "justtext"),
      elicit("answer", form.id, "{name:"),
      elicit(),
    ]);
    expect(noContent.code).toBe(2);
    expect(noContent.stderr).toContain("give the answer as '{json}' or as key=value pairs");
    expect(notAPair.code).toBe(2);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain("not valid JSON");
    expect(bare.code).toBe(2);
    expect((await store.questions.get(form.id))?.state).toBe("pending");
  });
});

describe("mcpx elicit watch", () => {
  it("follows questions opened and answered by another process, as JSON lines, until SIGINT", async () => {
    const earlier = await openForm(PROFILE, { message: "already waiting" });
    const child = spawn(process.execPath, [MCPX_BIN, "elicit", "watch", "--json"], { env: state.env, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const lines: JsonObject[] = [];
      const waiters: Array<() => void> = [];
      createInterface({ input: child.stdout }).on("line", (line) => {
        lines.push(JSON.parse(line) as JsonObject);
        for (const waiter of waiters.splice(0)) waiter();
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        for (const waiter of waiters.splice(0)) waiter();
      });
      const waitFor = (what: string, found: () => boolean): Promise<void> =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`watch never showed ${what}; lines: ${JSON.stringify(lines)}; stderr: ${stderr}`)), 10_000);
          const check = (): void => {
            if (found()) {
              clearTimeout(timer);
              resolve();
            } else waiters.push(check);
          };
          check();
        });
      const line = (id: string, state: string) => () => lines.some((view) => view.id === id && view.state === state);

      await waitFor("that it started", () => stderr.includes("watching questions"));
      await waitFor("the question already pending", line(earlier.id, "pending"));
      const form = await openForm(PROFILE, { message: "opened while watching" });
      await waitFor("the new question", line(form.id, "pending"));
      await broker.answer(form.id, { action: "accept", content: { name: "Ada", age: 1 } }, { by: "test" });
      await waitFor("the answer", line(form.id, "answered"));
      expect(lines.find((view) => view.id === form.id && view.state === "answered")).toMatchObject({
        server: "files",
        mode: "form",
        message: "opened while watching",
        answer: { action: "accept", by: "test", content: { name: "Ada", age: 1 } },
      });
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("mcpx elicit answer on a terminal", () => {
  it.skipIf(!hasScript())("asks field by field with defaults pre-filled, insists on required fields, then confirms", async () => {
    const form = await openForm();
    // `script` gives the CLI a pseudo-terminal; what we write to its stdin is typed on it.
    const { child, exited, expectThen } = onTerminal([process.execPath, MCPX_BIN, "elicit", "answer", form.id], state.env);
    const CLEAR_LINE = "\x15"; // Ctrl-U: drop the pre-filled default before typing another value
    try {
      await expectThen('server "files" asks: Who are you?');
      await expectThen("Your name (name), required: text");
      await expectThen("as it should appear");
      await expectThen("name: ", "\r");
      await expectThen('"name" is required');
      await expectThen("name: ", "Ada\r");
      await expectThen("age, required: integer, 0..150");
      await expectThen("age: ");
      await expectThen("30", "\r"); // the default, pre-filled: Enter keeps it
      await expectThen("score: number");
      await expectThen("score: ", "\r"); // optional, no default: left out
      await expectThen("ok: yes/no");
      await expectThen("yes", `${CLEAR_LINE}maybe\r`);
      await expectThen('field "ok" must be yes or no');
      await expectThen("yes", `${CLEAR_LINE}no\r`);
      await expectThen("2) g  Green");
      await expectThen("color: ", "2\r"); // by number
      await expectThen("3) c");
      await expectThen("tags: ", "1,c\r"); // by number and by value
      await expectThen('"tags": [');
      await expectThen('send it to "files"? [Y/n] ', "\r");
      await expectThen(`accept sent for question ${form.id}`);
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    expect((await store.questions.get(form.id))?.answer).toMatchObject({
      action: "accept",
      by: "cli",
      content: { name: "Ada", age: 30, ok: false, color: "g", tags: ["a", "c"] },
    });
    expect((await store.questions.get(form.id))?.answer?.content).not.toHaveProperty("score");
  });
});
