/**
 * A person-only answer (here a password) reaches the upstream that asked and nothing else: no
 * surface shows it back (CLI, REST, the event stream), and once delivered no byte of it is left
 * in the state directory: not in mcpx.db, not in its -wal or -shm. Real `mcpx serve`, real
 * upstream, the answer given from another process, the files read raw.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventStream, type Frame } from "../helpers/raw-http.js";
import { startUi, type RunningUi } from "../helpers/questions-api.js";
import type { TempConfig } from "../helpers/mcpx.js";
import { askingStdio, stdioHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, elicitListAll, pendingFrom, stateDirOf, storedQuestions, waitForQuestion } from "./support.js";

const PASSWORD_FORM = {
  type: "object",
  properties: { password: { type: "string", title: "Password", format: "password" } },
  required: ["password"],
};

/** Every file under the state dir whose raw bytes contain `marker`. */
function filesHolding(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker, "utf8");
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, entry);
    if (statSync(path).isFile() && readFileSync(path).includes(needle)) found.push(entry);
  }
  return found;
}

let config: TempConfig;
let host: RecordingHost;
beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  host = await stdioHost(config, { capabilities: {} }); // no elicitation: the question waits in the store
});
afterAll(async () => host?.close());

function askPassword(message: string): Promise<unknown> {
  return host.client.callTool({ name: "ask__ask_form", arguments: { message, schema: PASSWORD_FORM } });
}

describe("a password answered from `mcpx elicit answer`", () => {
  it("reaches the upstream, and then no file of the state dir holds it; list and show never print it", async () => {
    const marker = `hunter2-${randomUUID()}`;
    const call = askPassword("Vault password?");
    const question = await waitForQuestion(config, pendingFrom("ask", "Vault password?"));
    expect(question.audience).toBe("person");

    const answered = await elicit(config, "answer", question.id, `password=${marker}`);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).not.toContain(marker);

    // Delivered: the upstream returns what it received.
    expect(toolJson(await call)).toEqual({ action: "accept", content: { password: marker } });

    const dir = stateDirOf(config);
    expect(readdirSync(dir)).toContain("mcpx.db");
    expect(filesHolding(dir, marker)).toEqual([]);

    // The record stays (who answered, when), without the content.
    const [view] = (await elicitListAll(config)).filter((candidate) => candidate.id === question.id);
    expect(view?.answer).toMatchObject({ action: "accept", by: "cli" });
    expect(view?.answer).not.toHaveProperty("content");
    const shown = await elicit(config, "show", question.id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/answer\s+accept by cli/);
    expect(shown.stdout).not.toContain(marker);
  });
});

describe("a password answered over REST (`mcpx ui`, another process)", () => {
  let ui: RunningUi;
  let events: EventStream;
  beforeAll(async () => {
    ui = await startUi(stateDirOf(config));
    const controller = new AbortController();
    const response = await fetch(new URL("/v1/events", ui.base), { headers: { authorization: `Bearer ${ui.token}` }, signal: controller.signal });
    events = new EventStream(response, controller);
  });
  afterAll(async () => {
    events?.close();
    await ui?.close();
  });

  it("is never served back: not in the answer's reply, the event stream or GET /v1/questions; and it leaves no bytes", async () => {
    const marker = `correct-horse-${randomUUID()}`;
    const call = askPassword("Disk passphrase?");
    const question = await waitForQuestion(config, pendingFrom("ask", "Disk passphrase?"));
    const auth = { authorization: `Bearer ${ui.token}` };

    const reply = await fetch(new URL(`/v1/questions/${question.id}/answer`, ui.base), {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ action: "accept", content: { password: marker } }),
      signal: AbortSignal.timeout(10_000),
    });
    const replyText = await reply.text();
    expect(reply.status, replyText).toBe(200);
    expect(replyText).not.toContain(marker);
    expect(JSON.parse(replyText).answer).toMatchObject({ action: "accept", by: "rest" });

    expect(toolJson(await call)).toEqual({ action: "accept", content: { password: marker } });

    const settled = await events.waitFor((frame: Frame) => frame.id === question.id && frame.state === "answered");
    expect(settled.answer).toMatchObject({ action: "accept", by: "rest" });
    expect(JSON.stringify(events.messages)).not.toContain(marker);
    const list = await fetch(new URL("/v1/questions?all=true", ui.base), { headers: auth, signal: AbortSignal.timeout(10_000) });
    const listText = await list.text();
    expect(JSON.parse(listText).some((view: { id: string }) => view.id === question.id)).toBe(true);
    expect(listText).not.toContain(marker);

    expect(filesHolding(stateDirOf(config), marker)).toEqual([]);
    expect((await storedQuestions(config)).find((view) => view.id === question.id)?.answer).not.toHaveProperty("content");
  });
});
