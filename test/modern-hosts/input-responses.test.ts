import { describe, expect, it } from "vitest";
import { inputResponsesRefusal } from "../../src/host/modern/input-responses.js";

const asked = new Map([
  ["form", "elicitation/create"],
  ["model", "sampling/createMessage"],
  ["roots", "roots/list"],
]);

describe("inputResponsesRefusal", () => {
  it("takes well-formed answers, answers to some of the questions, and ignores keys of none", () => {
    const responses = {
      form: { action: "accept", content: { name: "x", tags: ["a"], n: 1, ok: true } },
      model: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
      roots: { roots: [{ uri: "file:///p" }] },
      stray: { anything: true },
    };
    expect(inputResponsesRefusal(responses, asked)).toBeUndefined();
    expect(inputResponsesRefusal({ form: { action: "cancel" } }, asked)).toBeUndefined();
    expect(inputResponsesRefusal(undefined, asked)).toBeUndefined();
  });

  it.each([
    ["not an object", ["form"], /inputResponses must be an object/],
    ["a roots answer without a list", { roots: { roots: "file:///p" } }, /"roots".*ListRootsResult: "roots" must be a list/],
    ["a root without a uri", { roots: { roots: [{ name: "p" }] } }, /roots\[0\]/],
    ["an answer that is a string", { form: "accept" }, /inputResponses\["form"\] must be an object/],
    ["accept with a nested object", { form: { action: "accept", content: { a: { b: 1 } } } }, /field "a"/],
  ])("refuses %s with -32602", (_label, responses, why) => {
    const refusal = inputResponsesRefusal(responses, asked);
    expect(refusal?.code).toBe(-32602);
    expect(refusal?.message).toMatch(why);
  });
});
