/** A rule's `match.fields` names fields the question has, never names every object has (`toString`, `constructor`). */
import { describe, expect, it } from "vitest";
import { decideAudience } from "../../src/broker/audience.js";
import { matchRule, parseRules } from "../../src/broker/policy.js";
import { form } from "./support.js";

describe("policy rules and prototype names", () => {
  it.each(["toString", "constructor", "hasOwnProperty", "__proto__", "valueOf"])("match.fields [%s] does not match a form without that field", (field) => {
    const rules = parseRules([{ match: { server: "files", fields: [field] }, action: "decline" }], "/config.json");
    const asked = form({ colour: { type: "string" } });
    expect(matchRule(rules, { question: asked, tool: undefined, audience: decideAudience(asked) })).toBeUndefined();
  });

  it("match.fields still matches a form that has the field", () => {
    const rules = parseRules([{ match: { server: "files", fields: ["colour"] }, action: "decline" }], "/config.json");
    const asked = form({ colour: { type: "string" } });
    expect(matchRule(rules, { question: asked, tool: undefined, audience: decideAudience(asked) })?.index).toBe(0);
  });
});
