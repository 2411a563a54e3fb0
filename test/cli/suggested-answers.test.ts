/**
 * What a new user is told to run works: a suggested answer (`respondWith`) run verbatim is
 * accepted, or is visibly a template whose placeholders are refused with a clear message, and
 * never gives a consent; a titled choice that does not fit lists the choices; `mcpx result`
 * takes a unique prefix of a call id.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Broker } from "../../src/broker/broker.js";
import type { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { questionFromRequest } from "../../src/render/question.js";
import { respondWith } from "../../src/cli/input-required.js";
import { writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { openBroker } from "../helpers/questions-api.js";
import { mcpxOnPath, runShell } from "../broker-e2e/support.js";

let state: TempConfig;
let store: SqliteStore;
let broker: Broker;
let closeBroker: () => void;
let serial = 0;
const bin = mcpxOnPath();

// A broker of the test's own on a fresh state dir, as another process would have.
beforeEach(async () => {
  state = writeConfig({ mcpServers: {} });
  ({ store, broker, close: closeBroker } = openBroker(state.env.MCPX_STATE_DIR!));
});
afterEach(async () => closeBroker());

async function openForm(schema: JsonObject, message = "Please fill this in") {
  const id = `form-${++serial}`;
  return await broker.open(questionFromRequest(id, "files", "elicitation/create", { message, requestedSchema: schema })!, {}, 300);
}

const str = { type: "string" };
const CASES: Array<{ name: string; schema: JsonObject; accepted: boolean }> = [
  {
    name: "every field has a default",
    schema: { type: "object", properties: { n: { type: "integer", default: 3 }, s: { ...str, default: "x" }, b: { type: "boolean", default: false } } },
    accepted: true,
  },
  {
    name: "optional fields without defaults",
    schema: { type: "object", properties: { s: str, n: { type: "number", minimum: 5 }, b: { type: "boolean" }, tags: { type: "array", items: str } } },
    accepted: true,
  },
  { name: "a required text without a default", schema: { type: "object", properties: { name: str }, required: ["name"] }, accepted: false },
  {
    name: "a required number with limits",
    schema: { type: "object", properties: { age: { type: "integer", minimum: 18 } }, required: ["age"] },
    accepted: false,
  },
  {
    name: "a required titled choice",
    schema: {
      type: "object",
      properties: {
        plan: {
          type: "string",
          oneOf: [
            { const: "free", title: "Free" },
            { const: "pro", title: "Pro" },
          ],
        },
      },
      required: ["plan"],
    },
    accepted: false,
  },
  {
    name: "a required boolean without a default",
    schema: { type: "object", properties: { note: str, keep: { type: "boolean" } }, required: ["keep"] },
    accepted: false,
  },
  {
    name: "a lone boolean (a consent) even with a default",
    schema: { type: "object", properties: { ok: { type: "boolean", default: true } } },
    accepted: false,
  },
  {
    name: "a consent among other fields, default true",
    schema: { type: "object", properties: { name: { ...str, default: "a" }, confirm_delete: { type: "boolean", default: true } } },
    accepted: false,
  },
];

describe("respondWith run verbatim", () => {
  for (const { name, schema, accepted } of CASES) {
    it(`${name}: ${accepted ? "accepted as it stands" : "a template, refused with a clear message"}`, async () => {
      const record = await openForm(schema);
      const line = respondWith(record);
      const run = await runShell(line, state, bin);
      const after = (await store.questions.get(record.id))!;
      if (accepted) {
        expect(run.code, run.stderr).toBe(0);
        expect(after.state).toBe("answered");
      } else {
        expect(line).toContain("<fill in: ");
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(/still holds the placeholder from the suggested answer; put the answer in its place/);
        expect(after.state).toBe("pending");
      }
      // No boolean is ever filled in without a default, and a consent never is.
      const content = JSON.parse(/'(.*)'$/.exec(line)![1]!.replace(/'\\''/g, "'")) as JsonObject;
      for (const [field, value] of Object.entries(content)) if (typeof value === "boolean") expect(schema.properties).toHaveProperty([field, "default"], value);
      if (name.includes("consent")) expect(Object.values(content)).not.toContain(true);
    });
  }
});

describe("a titled single-select that does not fit", () => {
  it("lists the choices with their titles instead of validator text", async () => {
    const record = await openForm({
      type: "object",
      properties: {
        plan: {
          type: "string",
          oneOf: [
            { const: "free", title: "Free" },
            { const: "pro", title: "Pro plan" },
          ],
        },
      },
    });
    const run = await runMcpx(["elicit", "answer", record.id, '{"plan":"gold"}'], state);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('field "plan" must be one of: free (Free), pro (Pro plan)');
    expect(run.stderr).not.toContain("constant");
    expect(run.stderr).not.toContain("oneOf");
  });
});

describe("mcpx result with an id prefix", () => {
  it("collects the one call a prefix names, and lists the calls an ambiguous one matches", async () => {
    await store.calls.create("abc12345-0000", "files", "read", {});
    await store.calls.finish("abc12345-0000", { result: { content: [{ type: "text", text: "first" }] } });
    await store.calls.create("abd99999-0000", "files", "read", {});
    await store.calls.finish("abd99999-0000", { result: { content: [{ type: "text", text: "second" }] } });
    const one = await runMcpx(["result", "abc1"], state);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe("first\n");
    const whole = await runMcpx(["result", "abd99999-0000"], state);
    expect(whole.stdout).toBe("second\n");
    const both = await runMcpx(["result", "ab"], state);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("ab starts more than one call id; give more of it:\n  abc12345-0000\n  abd99999-0000");
    const none = await runMcpx(["result", "zz"], state);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no call with id zz");
  });
});
