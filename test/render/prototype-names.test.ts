/** Names from the wire that are also Object.prototype's (`__proto__`, `toString`) are ordinary names when rendering. */
import { describe, expect, it } from "vitest";
import { renderFormSchema } from "../../src/render/form-schema.js";
import { renderSampling } from "../../src/render/sampling.js";
import { downgradeNotification, downgradeResult } from "../../src/protocol/downgrade.js";
import { host, question } from "./support.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";

describe("prototype names in rendering and downgrades", () => {
  it('a form field named "__proto__" stays a field of the rendered schema', () => {
    const requested = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"name":{"type":"string"}}}') as unknown;
    for (const revision of ["2025-06-18", "2025-11-25"] as const) {
      const rendered = renderFormSchema(requested, revision);
      expect(rendered.ok).toBe(true);
      if (!rendered.ok) return;
      const properties = rendered.schema.properties as object;
      expect(Object.keys(properties)).toEqual(["__proto__", "name"]);
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    }
  });

  it.each(["toString", "__proto__", "constructor", "valueOf"])("sampling content of type %s is not a known type", (type) => {
    const asked = question("sampling/createMessage", { messages: [{ role: "user", content: { type } }], maxTokens: 10 });
    const rendered = renderSampling(asked, host("2025-06-18", { sampling: {} }));
    expect(rendered.sendable).toBe(false);
  });

  it.each(["toString", "__proto__", "constructor", "hasOwnProperty"])("a result or notification of method %s is copied unchanged", (method) => {
    expect(downgradeResult(method, { a: 1 }, "2024-11-05")).toEqual({ a: 1 });
    expect(downgradeNotification(method, { a: 1 }, "2024-11-05")).toEqual({ a: 1 });
  });

  it('a result with a key "__proto__" keeps it as a key of a copy that shares nothing', () => {
    const wire = '{"structuredContent":{"__proto__":{"polluted":true},"n":[1,{"m":2}]},"content":[]}';
    const result = JSON.parse(wire) as JsonObject;
    const copied = downgradeResult("tools/call", result, "2025-11-25");
    expect(JSON.stringify(copied)).toBe(wire);
    const structured = copied.structuredContent as JsonObject;
    expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
    expect(Object.keys(structured)).toEqual(["__proto__", "n"]);
    expect(structured.n).not.toBe((result.structuredContent as JsonObject).n);
  });
});
