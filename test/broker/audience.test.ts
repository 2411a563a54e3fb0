/**
 * Who may answer: URL questions, passwords and credential-like fields, and a lone consent
 * yes/no are for a person only; everything else an agent may answer too. Always with a reason.
 * Every category, language and spelling trick is listed in audience-cases.test.ts.
 */
import { describe, expect, it } from "vitest";
import { decideAudience } from "../../src/broker/audience.js";
import { form, question, urlQuestion } from "./support.js";

describe("person only", () => {
  it("a URL question", () => {
    const decision = decideAudience(urlQuestion());
    expect(decision.audience).toBe("person");
    expect(decision.reason).toMatch(/URL/);
    expect(decision.sensitiveFields).toEqual([]);
  });

  it('a field with format "password", whatever its name', () => {
    const decision = decideAudience(form({ name: { type: "string" }, pin: { type: "string", format: "password" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["pin"] });
    expect(decision.reason).toContain('"pin"');
    expect(decision.reason).toMatch(/password/);
  });

  it.each([
    "password",
    "passwd",
    "passphrase",
    "secret",
    "clientSecret",
    "token",
    "access_token",
    "api_key",
    "apiKey",
    "API-Key",
    "credential",
    "credentials",
    "private_key",
  ])("a field named %s, named in the reason", (field) => {
    const decision = decideAudience(form({ user: { type: "string" }, [field]: { type: "string" } }));
    expect(decision.audience).toBe("person");
    expect(decision.sensitiveFields).toEqual([field]);
    expect(decision.reason).toContain(`"${field}"`);
    expect(decision.reason).toMatch(/credential|password/);
  });

  it("lists every sensitive field, so a rule must name them all", () => {
    const decision = decideAudience(form({ username: { type: "string" }, password: { type: "string" }, otp_secret: { type: "string" } }));
    expect(decision.sensitiveFields).toEqual(["password", "otp_secret"]);
  });

  // Issue 6: a form whose only field is a yes/no is a decision, the person's, whatever its
  // name ("verbose" was an agent's before); a lone field or an empty form worded as consent too.
  it("a lone boolean with a neutral name; a lone string named like consent; an empty form asking OK?", () => {
    expect(decideAudience(form({ verbose: { type: "boolean" } }))).toMatchObject({ audience: "person", sensitiveFields: ["verbose"] });
    expect(decideAudience(form({ confirm: { type: "string" } }))).toMatchObject({ audience: "person", sensitiveFields: ["confirm"] });
    const ok = decideAudience(question("elicitation/create", { message: "OK?", requestedSchema: { type: "object", properties: {} } }));
    expect(ok).toMatchObject({ audience: "person", sensitiveFields: [] });
    expect(ok.reason).toMatch(/consent/);
  });

  // Issue 13: consent is the question's, not the lone field's: a second field does not defeat it.
  it("a consent-like boolean among other fields", () => {
    const decision = decideAudience(form({ confirm: { type: "boolean" }, name: { type: "string" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["confirm"] });
    expect(decision.reason).toContain('"confirm"');
  });

  it.each(["confirm", "approve", "proceed", "confirmDelete", "approved", "consent", "agree"])("a lone boolean named %s (consent)", (field) => {
    const decision = decideAudience(form({ [field]: { type: "boolean" } }, [field]));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [field] });
    expect(decision.reason).toContain(`"${field}"`);
    expect(decision.reason).toMatch(/consent/);
  });
});

describe("an agent may answer", () => {
  it("a yes/no among other fields that asks for no consent", () => {
    const decision = decideAudience(form({ vegetarian: { type: "boolean" }, name: { type: "string" } }));
    expect(decision).toMatchObject({ audience: "agent", sensitiveFields: [] });
    expect(decision.reason).toBeTruthy();
  });

  it("a lone field that is neither a yes/no nor worded as consent", () => {
    expect(decideAudience(form({ city: { type: "string" } })).audience).toBe("agent");
    expect(decideAudience(form({ size: { type: "string", enum: ["s", "m", "l"] } })).audience).toBe("agent");
  });

  it("names that merely contain 'pass' are not credentials", () => {
    for (const name of ["passengers", "compass", "passport_country", "bypass"]) {
      expect(decideAudience(form({ [name]: { type: "string" } })).audience, name).toBe("agent");
    }
  });

  it("an ordinary form, and a form with no fields", () => {
    expect(decideAudience(form({ name: { type: "string" }, age: { type: "integer" } })).audience).toBe("agent");
    expect(
      decideAudience(question("elicitation/create", { message: "Nothing more to add", requestedSchema: { type: "object", properties: {} } })).audience,
    ).toBe("agent");
  });

  it("sampling, with a reason naming the method", () => {
    const sampling = decideAudience(question("sampling/createMessage", { messages: [], maxTokens: 10 }));
    expect(sampling).toMatchObject({ audience: "agent", sensitiveFields: [] });
    expect(sampling.reason).toContain("sampling/createMessage");
  });
});
