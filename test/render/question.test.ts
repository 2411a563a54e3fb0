import { describe, expect, it } from "vitest";
import { modeOf, questionFromRequest } from "../../src/render/question.js";
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
