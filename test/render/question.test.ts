import { describe, expect, it } from "vitest";
import { modeOf, questionFromRequest, questionRefusal } from "../../src/render/question.js";
import { deepFreeze } from "./support.js";

describe("questionFromRequest", () => {
  it("recognises the two question methods and their kinds; roots/list is the gateway's, not a question", () => {
    expect(questionFromRequest("a", "crm", "elicitation/create", { message: "m" })?.kind).toBe("elicitation");
    expect(questionFromRequest("a", "crm", "sampling/createMessage", { messages: [] })?.kind).toBe("sampling");
    expect(questionFromRequest("a", "crm", "roots/list", undefined)).toBeUndefined();
  });

  it("is undefined for methods that are not questions", () => {
    for (const method of ["tools/call", "ping", "notifications/elicitation/complete", "toString", "__proto__"]) {
      expect(questionFromRequest("a", "crm", method, {})).toBeUndefined();
    }
  });

  it("records id, server, method and the params as sent", () => {
    const params = deepFreeze({ message: "m", requestedSchema: { type: "object", properties: {} }, _meta: { x: 1 } });
    const q = questionFromRequest("q7", "crm", "elicitation/create", params);
    expect(q).toEqual({ id: "q7", server: "crm", kind: "elicitation", method: "elicitation/create", params });
    expect(q?.params).not.toBe(params);
  });

  it("treats absent params as an empty object", () => {
    expect(questionFromRequest("a", "fs", "sampling/createMessage", undefined)?.params).toEqual({});
  });

  it("keeps absent mode absent (form), and records form and url", () => {
    const none = questionFromRequest("a", "crm", "elicitation/create", { message: "m" });
    expect(none?.mode).toBeUndefined();
    expect(none && modeOf(none)).toBe("form");
    expect(questionFromRequest("a", "crm", "elicitation/create", { mode: "form" })?.mode).toBe("form");
    expect(questionFromRequest("a", "crm", "elicitation/create", { mode: "url" })?.mode).toBe("url");
  });

  it("refuses an elicitation mode mcpx does not know, so the caller can answer -32602", () => {
    expect(questionFromRequest("a", "crm", "elicitation/create", { mode: "wizard", message: "m" })).toBeUndefined();
  });

  it("gives no mode to other kinds", () => {
    expect(questionFromRequest("a", "crm", "sampling/createMessage", { mode: "url" })?.mode).toBeUndefined();
  });
});

describe("questionRefusal", () => {
  const url = (params: Record<string, unknown>) => ({ mode: "url", message: "Sign in", ...params });

  it("takes what the protocol allows: form, sampling, roots, a URL question with an absolute http(s) url", () => {
    expect(questionRefusal("elicitation/create", { message: "m", requestedSchema: {} }, "2025-11-25")).toBeUndefined();
    expect(questionRefusal("sampling/createMessage", { messages: [] }, "2025-11-25")).toBeUndefined();
    expect(questionRefusal("roots/list", undefined, "2026-07-28")).toBeUndefined();
    expect(questionRefusal("elicitation/create", url({ url: "https://example.com/a", elicitationId: "e1" }), "2025-11-25")).toBeUndefined();
    expect(questionRefusal("elicitation/create", url({ url: "http://127.0.0.1:9/a" }), "2026-07-28")).toBeUndefined();
  });

  it("refuses a method no client takes with -32601", () => {
    expect(questionRefusal("tools/call", {}, "2026-07-28")).toEqual({ code: -32601, message: "Method not found: tools/call" });
  });

  it.each([
    ["an unknown mode", { mode: "wizard", message: "m" }, /mode "wizard"/],
    ["no url", url({}), /needs a "url"/],
    ["a url that is no string", url({ url: ["https://example.com"] }), /"url" string/],
    ["a relative url", url({ url: "/sign-in" }), /absolute http\(s\) "url"/],
    ["another scheme", url({ url: "file:///etc/passwd" }), /scheme "file:"/],
  ])("refuses %s with -32602", (_label, params, why) => {
    const refusal = questionRefusal("elicitation/create", params, "2026-07-28");
    expect(refusal?.code).toBe(-32602);
    expect(refusal?.message).toMatch(why);
  });

  it("requires an elicitationId only where the revision does (2025-11-25, not 2026-07-28)", () => {
    const noId = url({ url: "https://example.com/a" });
    expect(questionRefusal("elicitation/create", noId, "2025-11-25")?.message).toMatch(/2025-11-25 needs an "elicitationId"/);
    expect(questionRefusal("elicitation/create", noId, "2026-07-28")).toBeUndefined();
    expect(questionRefusal("elicitation/create", noId, undefined)).toBeUndefined();
  });
});
