import { describe, expect, it } from "vitest";
import { canListRoots, canSample, elicitationModes, missingCapabilities } from "../../src/render/host.js";
import { host } from "./support.js";

const modes = (...args: Parameters<typeof host>) => [...elicitationModes(host(...args))].sort();

describe("elicitationModes", () => {
  it("is empty for revisions without elicitation, whatever was declared", () => {
    for (const revision of ["2024-11-05", "2025-03-26"] as const) {
      expect(modes(revision, { elicitation: {} })).toEqual([]);
      expect(modes(revision, { elicitation: { form: {}, url: {} } })).toEqual([]);
    }
  });

  it("is empty when the host declared no elicitation", () => {
    expect(modes("2025-06-18", {})).toEqual([]);
    expect(modes("2025-11-25", { sampling: {} })).toEqual([]);
    expect(modes("2025-11-25", { elicitation: true })).toEqual([]);
  });

  it("is form only on 2025-06-18, which has no modes", () => {
    expect(modes("2025-06-18", { elicitation: {} })).toEqual(["form"]);
    expect(modes("2025-06-18", { elicitation: { url: {} } })).toEqual(["form"]);
  });

  it("reads an empty declaration as form only from 2025-11-25 on", () => {
    expect(modes("2025-11-25", { elicitation: {} })).toEqual(["form"]);
    expect(modes("2026-07-28", { elicitation: {} })).toEqual(["form"]);
  });

  it("gives exactly the declared modes from 2025-11-25 on", () => {
    expect(modes("2025-11-25", { elicitation: { form: {} } })).toEqual(["form"]);
    expect(modes("2025-11-25", { elicitation: { url: {} } })).toEqual(["url"]);
    expect(modes("2025-11-25", { elicitation: { form: {}, url: {} } })).toEqual(["form", "url"]);
    expect(modes("2026-07-28", { elicitation: { url: {} } })).toEqual(["url"]);
  });
});

describe("canSample", () => {
  const plain = { messages: [], maxTokens: 10 };
  const tools = { ...plain, tools: [{ name: "t", inputSchema: { type: "object" } }] };

  it("needs the sampling declaration", () => {
    expect(canSample(host("2025-06-18", {}), plain)).toBe(false);
    expect(canSample(host("2024-11-05", { sampling: {} }), plain)).toBe(true);
    expect(canSample(host("2024-11-05", { sampling: {} }))).toBe(true);
  });

  it("needs sampling.tools and a revision with tool use when the request offers tools", () => {
    expect(canSample(host("2025-11-25", { sampling: {} }), tools)).toBe(false);
    expect(canSample(host("2025-11-25", { sampling: { tools: {} } }), tools)).toBe(true);
    expect(canSample(host("2025-06-18", { sampling: { tools: {} } }), tools)).toBe(false);
    expect(canSample(host("2025-11-25", { sampling: {} }), { ...plain, toolChoice: { mode: "auto" } })).toBe(false);
  });
});

describe("canListRoots", () => {
  it("follows the roots declaration in every revision", () => {
    expect(canListRoots(host("2024-11-05", { roots: {} }))).toBe(true);
    expect(canListRoots(host("2026-07-28", { roots: { listChanged: true } }))).toBe(true);
    expect(canListRoots(host("2025-11-25", {}))).toBe(false);
  });
});

describe("missingCapabilities", () => {
  const form = { method: "elicitation/create", params: { message: "m" } };
  const url = { method: "elicitation/create", mode: "url" as const, params: { message: "m", url: "https://x" } };
  const sampling = { method: "sampling/createMessage", params: { messages: [] } };
  const withTools = { method: "sampling/createMessage", params: { messages: [], tools: [] } };

  it("names what a modern host did not declare, and nothing when it did", () => {
    expect(missingCapabilities(form, host("2026-07-28", {}))).toEqual({ elicitation: { form: {} } });
    expect(missingCapabilities(form, host("2026-07-28", { elicitation: {} }))).toBeUndefined();
    expect(missingCapabilities(url, host("2026-07-28", { elicitation: {} }))).toEqual({ elicitation: { url: {} } });
    expect(missingCapabilities(form, host("2026-07-28", { elicitation: { url: {} } }))).toEqual({ elicitation: { form: {} } });
    expect(missingCapabilities(sampling, host("2026-07-28", { elicitation: {} }))).toEqual({ sampling: {} });
    expect(missingCapabilities(withTools, host("2026-07-28", {}))).toEqual({ sampling: { tools: {} } });
    expect(missingCapabilities(withTools, host("2026-07-28", { sampling: {} }))).toEqual({ sampling: { tools: {} } });
    expect(missingCapabilities(withTools, host("2026-07-28", { sampling: { tools: {} } }))).toBeUndefined();
  });

  it("is nothing when the revision, not the declaration, is why", () => {
    expect(missingCapabilities(url, host("2025-06-18", { elicitation: {} }))).toBeUndefined();
    expect(missingCapabilities(form, host("2025-03-26", {}))).toBeUndefined();
    expect(missingCapabilities(withTools, host("2025-06-18", { sampling: {} }))).toBeUndefined();
    expect(missingCapabilities(form, host("2025-06-18", {}))).toEqual({ elicitation: {} });
  });
});
