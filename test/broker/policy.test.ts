/**
 * Policy rules: refused at load when they would match everything or are malformed (the
 * message names `elicitation.rules[i]`); matched on server, tool, mode and fields, first match
 * winning; person-only questions answered only by a rule naming the server and the fields
 * (or `mode: "url"`; every field when the message asks for a secret; none at all for a consent
 * with no fields); and what each `elicitation.mode` does when no rule answered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { decideAudience } from "../../src/broker/audience.js";
import { defaultsOf, matchRule, modeDecision, parseRules, ruleAnswer, type Rule } from "../../src/broker/policy.js";
import { ConfigError } from "../../src/config/errors.js";
import type { Question } from "../../src/render/question.js";
import { form, openBroker, profileForm, question, urlQuestion, type OpenBroker } from "./support.js";

const FILE = "/home/u/.config/mcpx/mcpx.json";

function refusal(raw: unknown[]): string {
  try {
    parseRules(raw, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`rules were accepted: ${JSON.stringify(raw)}`);
}

/** The index of the rule that answers `q` (asked from `tool`), or undefined. */
function pick(rules: unknown[], q: Question, tool?: string): number | undefined {
  return matchRule(parseRules(rules, FILE), { question: q, tool, audience: decideAudience(q) })?.index;
}

describe("parseRules", () => {
  it("refuses a rule with an empty or missing match", async () => {
    const message = refusal([
      { match: { server: "a" }, action: "decline" },
      { match: {}, action: "decline" },
    ]);
    expect(message).toContain(`${FILE}: elicitation.rules[1].match`);
    expect(message).toMatch(/matches everything is refused/);
    expect(refusal([{ action: "cancel" }])).toContain("elicitation.rules[0].match");
  });

  it("refuses unknown keys, in the rule and in its match", async () => {
    expect(refusal([{ match: { server: "a" }, action: "decline", when: "always" }])).toMatch(/elicitation\.rules\[0\]\.when is not a known key/);
    expect(refusal([{ match: { host: "a" }, action: "decline" }])).toMatch(/elicitation\.rules\[0\]\.match\.host is not a known key/);
  });

  it("refuses a bad action, naming the ones there are", async () => {
    const message = refusal([{ match: { server: "a" }, action: "allow" }]);
    expect(message).toContain("elicitation.rules[0].action");
    expect(message).toMatch(/accept, acceptDefaults, decline, cancel/);
    expect(refusal([{ match: { server: "a" } }])).toContain("elicitation.rules[0].action");
  });

  it("refuses malformed match values and content", async () => {
    expect(refusal([{ match: { server: "" }, action: "decline" }])).toContain("elicitation.rules[0].match.server");
    expect(refusal([{ match: { tool: 3 }, action: "decline" }])).toContain("elicitation.rules[0].match.tool");
    expect(refusal([{ match: { mode: "popup" }, action: "decline" }])).toContain("elicitation.rules[0].match.mode");
    expect(refusal([{ match: { fields: [] }, action: "decline" }])).toContain("elicitation.rules[0].match.fields");
    expect(refusal([{ match: { fields: "name" }, action: "decline" }])).toContain("elicitation.rules[0].match.fields");
    expect(refusal([{ match: { server: "a" }, action: "accept", content: "yes" }])).toContain("elicitation.rules[0].content");
    expect(refusal([{ match: { server: "a" }, action: "decline", reason: 7 }])).toContain("elicitation.rules[0].reason");
    expect(refusal(["decline"])).toContain("elicitation.rules[0] must be an object");
  });

  it("keeps each rule's index, and gives a default reason", async () => {
    const rules = parseRules(
      [
        { match: { server: "a" }, action: "decline", reason: "a never asks anything useful" },
        { match: { tool: "t", mode: "form", fields: ["x"] }, action: "accept", content: { x: 1 } },
      ],
      FILE,
    );
    expect(rules).toEqual<Rule[]>([
      { index: 0, match: { server: "a" }, action: "decline", reason: "a never asks anything useful" },
      { index: 1, match: { tool: "t", mode: "form", fields: ["x"] }, action: "accept", content: { x: 1 }, reason: "rule 1" },
    ]);
  });
});

describe("matching", () => {
  const asked = profileForm("files"); // fields name, age, email, colour; anyone may answer

  it("on server, tool, mode and fields", async () => {
    expect(pick([{ match: { server: "files" }, action: "decline" }], asked)).toBe(0);
    expect(pick([{ match: { server: "mail" }, action: "decline" }], asked)).toBeUndefined();
    expect(pick([{ match: { tool: "files__write" }, action: "decline" }], asked, "files__write")).toBe(0);
    expect(pick([{ match: { tool: "files__write" }, action: "decline" }], asked, "files__read")).toBeUndefined();
    expect(pick([{ match: { tool: "files__write" }, action: "decline" }], asked)).toBeUndefined();
    expect(pick([{ match: { mode: "form" }, action: "decline" }], asked)).toBe(0);
    expect(pick([{ match: { mode: "url" }, action: "decline" }], asked)).toBeUndefined();
    expect(pick([{ match: { fields: ["name", "email"] }, action: "decline" }], asked)).toBe(0);
    expect(pick([{ match: { fields: ["name", "phone"] }, action: "decline" }], asked)).toBeUndefined();
  });

  it("needs every condition of a rule", async () => {
    expect(pick([{ match: { server: "files", tool: "files__write", mode: "form", fields: ["age"] }, action: "decline" }], asked, "files__write")).toBe(0);
    expect(pick([{ match: { server: "files", tool: "files__write", mode: "url" }, action: "decline" }], asked, "files__write")).toBeUndefined();
  });

  it("lets the first matching rule win", async () => {
    const rules = [
      { match: { server: "mail" }, action: "cancel" },
      { match: { server: "files" }, action: "decline" },
      { match: { fields: ["name"] }, action: "acceptDefaults" },
    ];
    expect(pick(rules, asked)).toBe(1);
  });

  it("does not match sampling or roots on mode or fields", async () => {
    const sampling = question("sampling/createMessage", { messages: [], maxTokens: 5 });
    expect(pick([{ match: { mode: "form" }, action: "decline" }], sampling)).toBeUndefined();
    expect(pick([{ match: { fields: ["messages"] }, action: "decline" }], sampling)).toBeUndefined();
    expect(pick([{ match: { server: "files" }, action: "decline" }], sampling)).toBe(0);
  });
});

describe("person-only questions and rules", () => {
  const login = form({ user: { type: "string" }, password: { type: "string" } }, ["user", "password"], "vault");

  it("are answered only by a rule naming the server and every sensitive field", async () => {
    expect(pick([{ match: { fields: ["password"] }, action: "decline" }], login)).toBeUndefined();
    expect(pick([{ match: { server: "vault" }, action: "decline" }], login)).toBeUndefined();
    expect(pick([{ match: { server: "vault", fields: ["user"] }, action: "decline" }], login)).toBeUndefined();
    expect(pick([{ match: { server: "vault", fields: ["password"] }, action: "decline" }], login)).toBe(0);
  });

  it("skip a matching rule that may not answer them, for a later one that may", async () => {
    const rules = [
      { match: { mode: "form" }, action: "acceptDefaults" },
      { match: { server: "vault", fields: ["user", "password"] }, action: "cancel" },
    ];
    expect(pick(rules, login)).toBe(1);
  });

  it("a lone consent boolean needs its field named too", async () => {
    const consent = form({ approve: { type: "boolean" } }, ["approve"], "deploy");
    expect(pick([{ match: { server: "deploy" }, action: "accept", content: { approve: true } }], consent)).toBeUndefined();
    expect(pick([{ match: { server: "deploy", fields: ["approve"] }, action: "accept", content: { approve: true } }], consent)).toBe(0);
  });

  it("a question whose message asks for a secret needs every field named", async () => {
    const twoFactor = form({ code: { type: "string" }, remember: { type: "boolean" } }, ["code"], "bank");
    twoFactor.params.message = "Enter your 2FA code";
    expect(pick([{ match: { server: "bank" }, action: "decline" }], twoFactor)).toBeUndefined();
    expect(pick([{ match: { server: "bank", fields: ["remember"] }, action: "decline" }], twoFactor)).toBeUndefined();
    expect(pick([{ match: { server: "bank", fields: ["code", "remember"] }, action: "decline" }], twoFactor)).toBe(0);
  });

  it("a person-only question with no field to name (a consent asked with an empty form) is answered by no rule", async () => {
    const consent = question("elicitation/create", { message: "Allow access to your files?", requestedSchema: { type: "object", properties: {} } }, "files");
    expect(pick([{ match: { server: "files" }, action: "accept" }], consent)).toBeUndefined();
    expect(pick([{ match: { server: "files", mode: "form" }, action: "accept" }], consent)).toBeUndefined();
  });

  it('URL questions need the server and mode "url"', async () => {
    const url = urlQuestion("vault");
    expect(pick([{ match: { mode: "url" }, action: "decline" }], url)).toBeUndefined();
    expect(pick([{ match: { server: "vault" }, action: "decline" }], url)).toBeUndefined();
    expect(pick([{ match: { server: "other", mode: "url" }, action: "decline" }], url)).toBeUndefined();
    expect(pick([{ match: { server: "vault", mode: "url" }, action: "decline" }], url)).toBe(0);
  });
});

describe("what a rule answers", () => {
  const rule = (raw: object): Rule => parseRules([raw], FILE)[0]!;

  it("accept with the given content, by rule:<index>, with the reason", async () => {
    expect(ruleAnswer(rule({ match: { server: "files" }, action: "accept", content: { name: "bot" }, reason: "CI" }), profileForm())).toEqual({
      action: "accept",
      content: { name: "bot" },
      by: "rule:0",
      reason: "CI",
    });
  });

  it("acceptDefaults fills every field that has a default, and only those", async () => {
    const q = form({ a: { type: "string", default: "x" }, b: { type: "integer" }, c: { type: "boolean", default: false } });
    expect(defaultsOf(q)).toEqual({ a: "x", c: false });
    expect(ruleAnswer(rule({ match: { server: "files" }, action: "acceptDefaults" }), q)).toMatchObject({
      action: "accept",
      content: { a: "x", c: false },
      by: "rule:0",
    });
  });

  it("decline and cancel carry no content", async () => {
    expect(ruleAnswer(rule({ match: { server: "files" }, action: "decline" }), profileForm())).toEqual({ action: "decline", by: "rule:0", reason: "rule 0" });
    expect(ruleAnswer(rule({ match: { server: "files" }, action: "cancel" }), profileForm())).toEqual({ action: "cancel", by: "rule:0", reason: "rule 0" });
  });

  describe("in the broker", () => {
    let open: OpenBroker;
    afterEach(() => open?.close());

    it("settles a question at once when the rule's answer fits, and leaves it pending when not", async () => {
      open = openBroker();
      const defaults = rule({ match: { server: "files" }, action: "acceptDefaults" });
      // A form whose required field has a default: the defaults fit.
      const fits = form({ colour: { type: "string", enum: ["red", "green"], default: "green" } }, ["colour"]);
      const settled = await open.broker.open(fits, {}, 60, ruleAnswer(defaults, fits));
      expect(settled).toMatchObject({ state: "answered", answer: { action: "accept", content: { colour: "green" }, by: "rule:0" } });
      // The profile form requires a name with no default: the rule's answer does not fit.
      const missing = profileForm();
      expect((await open.broker.open(missing, {}, 60, ruleAnswer(defaults, missing))).state).toBe("pending");
    });
  });
});

describe("modeDecision, when no rule answered", () => {
  it("ask waits for someone", async () => {
    expect(modeDecision("ask")).toBeUndefined();
  });

  it("auto cancels (never declines)", async () => {
    expect(modeDecision("auto")).toMatchObject({ action: "cancel", by: "policy:auto" });
  });

  it("decline declines, error errors", async () => {
    expect(modeDecision("decline")).toMatchObject({ action: "decline", by: "policy:decline" });
    expect(modeDecision("error")).toBe("error");
  });

  it("always gives a reason", async () => {
    for (const mode of ["auto", "decline"] as const) {
      const decision = modeDecision(mode);
      expect(decision !== "error" && decision?.reason).toMatch(/elicitation\.mode/);
    }
  });
});
