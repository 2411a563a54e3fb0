/** On a terminal, typing at a pre-filled default replaces it; Enter keeps it; Backspace edits it. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Broker } from "../../src/broker/broker.js";
import type { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { questionFromRequest } from "../../src/render/question.js";
import { MCPX_BIN, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";
import { openBroker } from "../helpers/questions-api.js";

let state: TempConfig;
let store: SqliteStore;
let broker: Broker;
let closeBroker: () => void;

// A broker of the test's own on a fresh state dir, as another process would have.
beforeEach(async () => {
  state = writeConfig({ mcpServers: {} });
  ({ store, broker, close: closeBroker } = openBroker(state.env.MCPX_STATE_DIR!));
});
afterEach(async () => closeBroker());

describe("a pre-filled terminal prompt", () => {
  it.skipIf(!hasScript())("is replaced by typing, kept by Enter, edited by Backspace", async () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string", default: "Paris" },
        age: { type: "integer", default: 30 },
        count: { type: "integer", default: 30 },
      },
    };
    const form = await broker.open(questionFromRequest("prefill-1", "files", "elicitation/create", { message: "Where?", requestedSchema: schema })!, {}, 300);
    // As `mcpx serve` does: once it is answered, hand the answer over and record its delivery.
    void broker.wait(form.id).then(
      (settled) => broker.delivered(settled.id),
      () => {},
    );
    const { child, exited, expectThen } = onTerminal([process.execPath, MCPX_BIN, "elicit", "answer", form.id], state.env);
    try {
      await expectThen("typing replaces it");
      await expectThen("city: ");
      await expectThen("Paris", "Rome\r"); // typed over the default
      await expectThen("age: ");
      await expectThen("30", "\r"); // kept
      await expectThen("count: ");
      await expectThen("30", "\x7f5\r"); // edited: 3, then 35
      await expectThen('send it to "files"? [Y/n] ', "\r");
      await expectThen(`accept sent for question ${form.id}`);
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    expect((await store.questions.get(form.id))?.answer?.content).toEqual({ city: "Rome", age: 30, count: 35 });
  });
});
