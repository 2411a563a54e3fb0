import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { renderForHost, type RenderResult } from "../../src/render/render.js";
import { specErrors } from "./spec-schema.js";
import { form, host } from "./support.js";

// 2025-11-25 property shapes (SEP-1330 enums, SEP-1034 defaults).
const untitledSingle = { type: "string", title: "Colour", enum: ["red", "green", "blue"], default: "green" };
const titledSingle = {
  type: "string",
  title: "Plan",
  description: "Billing plan",
  oneOf: [
    { const: "pro", title: "Pro plan" },
    { const: "free", title: "Free" },
    { const: "ent", title: "Enterprise" },
  ],
  default: "free",
};
const legacyTitled = { type: "string", enum: ["eu", "us"], enumNames: ["Europe", "United States"], default: "eu" };
const untitledMulti = { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, default: ["a"] };
const titledMulti = {
  type: "array",
  items: {
    anyOf: [
      { const: "a", title: "A" },
      { const: "b", title: "B" },
    ],
  },
};
const text = { type: "string", title: "Email", format: "email", minLength: 3, default: "me@example.com" };
const number = { type: "number", minimum: 0, maximum: 10, default: 2.5 };
const integer = { type: "integer", default: 3 };
const boolean = { type: "boolean", title: "Subscribe", default: true };

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

const h0618 = host("2025-06-18", { elicitation: {} });
const h1125 = host("2025-11-25", { elicitation: {} });
const h2026 = host("2026-07-28", { elicitation: {} });

function sent(result: RenderResult): { method: string; params: JsonObject } {
  if (!result.sendable) throw new Error(`not sendable: ${result.reason}`);
  return result;
}

/** The one property `p` of a rendered form, after checking the whole request against 2025-06-18. */
function renderedProperty(property: JsonObject): unknown {
  const { method, params } = sent(renderForHost(form({ p: property }), h0618));
  expect(specErrors("2025-06-18", method, params, { closed: true })).toEqual([]);
  return (params.requestedSchema as { properties: JsonObject }).properties.p;
}

describe("form elicitation to a 2025-06-18 host", () => {
  it("keeps an untitled single-select, without its default", () => {
    expect(renderedProperty(untitledSingle)).toEqual({ type: "string", title: "Colour", enum: ["red", "green", "blue"] });
  });

  it("turns a titled single-select into enum + enumNames in the same order", () => {
    expect(renderedProperty(titledSingle)).toEqual({
      type: "string",
      title: "Plan",
      description: "Billing plan",
      enum: ["pro", "free", "ent"],
      enumNames: ["Pro plan", "Free", "Enterprise"],
    });
  });

  it("keeps a legacy enum + enumNames, without its default", () => {
    expect(renderedProperty(legacyTitled)).toEqual({ type: "string", enum: ["eu", "us"], enumNames: ["Europe", "United States"] });
  });

  it("keeps a default only on booleans", () => {
    expect(renderedProperty(text)).toEqual({ type: "string", title: "Email", format: "email", minLength: 3 });
    expect(renderedProperty(number)).toEqual({ type: "number", minimum: 0, maximum: 10 });
    expect(renderedProperty(integer)).toEqual({ type: "integer" });
    expect(renderedProperty(boolean)).toEqual(boolean);
  });

  it.each([
    ["untitled", untitledMulti],
    ["titled", titledMulti],
  ])("does not send an %s multi-select, and says why", (_, multi) => {
    const q = form({ name: { type: "string" }, colours: multi });
    const result = renderForHost(q, h0618);
    expect(result.sendable).toBe(false);
    if (!result.sendable) expect(result.reason).toMatch(/"colours".*multi-select.*2025-06-18/);
    // Negative control: sent as it is, the request is invalid for 2025-06-18.
    expect(specErrors("2025-06-18", q.method, q.params)).not.toEqual([]);
  });

  it("renders a mixed form field by field", () => {
    const q = form({ untitledSingle, titledSingle, legacyTitled, text, number, integer, boolean }, { mode: "form", _meta: { progressToken: 4 } });
    const { params } = sent(renderForHost(q, h0618, { nameServer: false }));
    expect(params).toEqual({
      message: "Please fill in your details",
      _meta: { progressToken: 4 },
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", title: "Colour", enum: ["red", "green", "blue"] },
          titledSingle: {
            type: "string",
            title: "Plan",
            description: "Billing plan",
            enum: ["pro", "free", "ent"],
            enumNames: ["Pro plan", "Free", "Enterprise"],
          },
          legacyTitled: { type: "string", enum: ["eu", "us"], enumNames: ["Europe", "United States"] },
          text: { type: "string", title: "Email", format: "email", minLength: 3 },
          number: { type: "number", minimum: 0, maximum: 10 },
          integer: { type: "integer" },
          boolean,
        },
      },
    });
    expect(specErrors("2025-06-18", "elicitation/create", params, { closed: true })).toEqual([]);
  });

  it("does not send a mixed form that contains one multi-select", () => {
    expect(renderForHost(form({ untitledSingle, boolean, tags: untitledMulti }), h0618).sendable).toBe(false);
  });

  it("drops mode, elicitationId, task and $schema", () => {
    const q = form(
      {},
      {
        mode: "form",
        elicitationId: "e1",
        task: { ttl: 1000 },
        requestedSchema: { $schema: DIALECT, type: "object", properties: { boolean }, required: ["boolean"] },
      },
    );
    const { method, params } = sent(renderForHost(q, h0618, { nameServer: false }));
    expect(params).toEqual({
      message: "Please fill in your details",
      requestedSchema: { type: "object", properties: { boolean }, required: ["boolean"] },
    });
    expect(specErrors("2025-06-18", method, params, { closed: true })).toEqual([]);
  });

  it("passes keywords no revision defines, such as pattern, untouched", () => {
    // Stripping `pattern` would widen what the host accepts; every revision's schema allows it.
    expect(renderedPropertyOpen({ type: "string", pattern: "^[a-z]+$", default: "abc" })).toEqual({
      type: "string",
      pattern: "^[a-z]+$",
    });
  });

  it.each([
    ["a oneOf that is not {const, title}", { type: "string", oneOf: [{ const: "a" }] }, /"p".*oneOf/],
    ["oneOf together with enum", { type: "string", enum: ["a"], oneOf: [{ const: "a", title: "A" }] }, /"p".*oneOf.*enum/],
    ["oneOf on a number", { type: "number", oneOf: [{ const: "1", title: "One" }] }, /"p".*non-string/],
    ["an object type", { type: "object", properties: {} }, /"p".*type "object"/],
    ["no type", { enum: ["a"] }, /"p".*type \(none\)/],
    ["a list of types", { type: ["string", "null"] }, /"p".*type \["string","null"\]/],
  ])("does not send a property with %s", (_, property, reason) => {
    const result = renderForHost(form({ p: property }), h0618);
    expect(result).toEqual({ sendable: false, reason: expect.stringMatching(reason) });
  });

  it("does not send a form without a properties object", () => {
    const result = renderForHost(form({}, { requestedSchema: { type: "object" } }), h0618);
    expect(result).toEqual({ sendable: false, reason: expect.stringMatching(/properties/) });
  });
});

function renderedPropertyOpen(property: JsonObject): unknown {
  const { method, params } = sent(renderForHost(form({ p: property }), h0618));
  expect(specErrors("2025-06-18", method, params)).toEqual([]);
  return (params.requestedSchema as { properties: JsonObject }).properties.p;
}

describe.each([
  ["2025-11-25", h1125],
  ["2026-07-28", h2026],
] as const)("form elicitation to a %s host", (revision, target) => {
  const everything = { untitledSingle, titledSingle, legacyTitled, untitledMulti, titledMulti, text, number, integer, boolean };

  it("passes the params through verbatim", () => {
    const q = form({}, { mode: "form", requestedSchema: { $schema: DIALECT, type: "object", properties: everything } });
    const { method, params } = sent(renderForHost(q, target, { nameServer: false }));
    expect(params).toEqual(q.params);
    expect(params).not.toBe(q.params);
    expect(params.requestedSchema).not.toBe(q.params.requestedSchema);
    expect(specErrors(revision, method, params)).toEqual([]);
  });

  it("changes only the message when naming the server", () => {
    const q = form(everything);
    const { method, params } = sent(renderForHost(q, target));
    expect(params).toEqual({ ...q.params, message: "[crm] Please fill in your details" });
    expect(specErrors(revision, method, params)).toEqual([]);
  });
});

describe("the question is never mutated", () => {
  it("survives rendering for every host deep-frozen and unchanged", () => {
    // `form` deep-freezes the question; any write in the renderer would throw.
    const q = form({ titledSingle, untitledSingle, text, boolean }, { mode: "form", elicitationId: "e1", task: { ttl: 5 } });
    const before = structuredClone(q);
    for (const target of [h0618, h1125, h2026, host("2024-11-05", { elicitation: {} })]) {
      renderForHost(q, target);
      renderForHost(q, target, { nameServer: false });
    }
    expect(q).toEqual(before);
  });

  it("hands back params the caller may change without touching the question", () => {
    const q = form({ boolean });
    const { params } = sent(renderForHost(q, h1125));
    (params.requestedSchema as JsonObject).type = "changed";
    expect((q.params.requestedSchema as JsonObject).type).toBe("object");
  });
});
