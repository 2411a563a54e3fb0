/**
 * Checking an answer's content against the form's schema: every problem named by field, and
 * nothing an upstream can put in a schema makes answering throw or leak.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerProblems } from "../../src/broker/validate-answer.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { ROOT } from "../helpers/mcpx.js";

/** A schema as the store hands it over: a fresh object every time. */
const fresh = (schema: object): JsonObject => JSON.parse(JSON.stringify(schema)) as JsonObject;

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2 },
    age: { type: "integer", minimum: 0 },
    plan: {
      type: "string",
      oneOf: [
        { const: "free", title: "Free" },
        { const: "pro", title: "Pro" },
      ],
    },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
  },
  required: ["name"],
};

describe("answerProblems", () => {
  it("is empty when the content fits", () => {
    expect(answerProblems(fresh(SCHEMA), { name: "Ada", age: 36, plan: "pro", tags: ["a"] })).toEqual([]);
  });

  it("names the field of every problem", () => {
    const problems = answerProblems(fresh(SCHEMA), { name: "A", age: -1, plan: "gold", tags: ["c"] });
    expect(problems.some((problem) => problem.includes('"name"'))).toBe(true);
    expect(problems.some((problem) => problem.includes('"age"'))).toBe(true);
    expect(problems.some((problem) => problem.includes('"plan"'))).toBe(true);
    expect(problems.some((problem) => problem.includes('"tags.0"'))).toBe(true);
  });

  it("ignores a $schema dialect it does not load", () => {
    const schema = fresh({ $schema: "https://json-schema.org/draft/2020-12/schema", ...SCHEMA });
    expect(answerProblems(schema, { name: "Ada" })).toEqual([]);
    expect(answerProblems(schema, {})).toEqual(['missing required field "name"']);
  });

  it("checks a second question whose schema has the same $id", () => {
    const withId = { $id: "https://example.com/forms/profile", ...SCHEMA };
    expect(answerProblems(fresh(withId), { name: "Ada" })).toEqual([]);
    expect(answerProblems(fresh(withId), { name: "Bob" })).toEqual([]);
    expect(answerProblems(fresh({ ...withId, required: ["age"] }), { name: "Cy" })).toEqual(['missing required field "age"']);
  });

  it("reports a schema it cannot compile as a problem instead of throwing", () => {
    const problems = answerProblems(fresh({ type: "object", properties: { code: { type: "string", pattern: "(" } } }), { code: "x" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/schema cannot be checked/);
  });

  it("does not grow the heap with every answer", () => {
    // A child with --expose-gc, so that what is measured is what stays reachable.
    const script = `
      const { answerProblems } = await import(${JSON.stringify(join(ROOT, "dist/broker/validate-answer.js"))});
      const text = ${JSON.stringify(JSON.stringify(SCHEMA))};
      answerProblems(JSON.parse(text), { name: "warm" });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 2000; i++) answerProblems(JSON.parse(text), { name: "Ada" + i });
      gc();
      console.log(process.memoryUsage().heapUsed - before);
    `;
    const run = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(run.stdout.trim())).toBeLessThan(4_000_000);
  });
});
