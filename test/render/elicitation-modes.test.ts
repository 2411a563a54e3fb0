import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { REVISIONS } from "../../src/protocol/revisions.js";
import { renderForHost, type RenderResult } from "../../src/render/render.js";
import { specErrors } from "./spec-schema.js";
import { form, host, question } from "./support.js";

const url = (extra: JsonObject = {}) =>
  question("elicitation/create", {
    mode: "url",
    message: "Sign in to your CRM account",
    url: "https://crm.example.com/connect?session=abc",
    elicitationId: "crm-7",
    ...extra,
  });
const plainForm = () => form({ name: { type: "string" } });

function sent(result: RenderResult): { method: string; params: JsonObject } {
  if (!result.sendable) throw new Error(`not sendable: ${result.reason}`);
  return result;
}

describe("URL-mode elicitation", () => {
  it.each([[{ url: {} }], [{ form: {}, url: {} }]])("goes to a 2025-11-25 host that declared url (%j)", (elicitation) => {
    const q = url();
    const { method, params } = sent(renderForHost(q, host("2025-11-25", { elicitation })));
    expect(params).toEqual({ ...q.params, message: "[crm] Sign in to your CRM account" });
    expect(specErrors("2025-11-25", method, params)).toEqual([]);
  });

  it("gets an elicitationId minted for 2025-11-25 when the upstream left it out", () => {
    const q = url({ elicitationId: undefined });
    const { method, params } = sent(renderForHost(q, host("2025-11-25", { elicitation: { url: {} } })));
    expect(params.elicitationId).toBe("mcpx-q1");
    expect(specErrors("2025-11-25", method, params)).toEqual([]);
    // Negative control: without it, the request is invalid for 2025-11-25.
    expect(specErrors("2025-11-25", method, { ...params, elicitationId: undefined })).not.toEqual([]);
  });

  it("loses its elicitationId for 2026-07-28", () => {
    const q = url();
    const { method, params } = sent(renderForHost(q, host("2026-07-28", { elicitation: { url: {} } }), { nameServer: false }));
    const { elicitationId: _, ...rest } = q.params;
    expect(params).toEqual(rest);
    expect(specErrors("2026-07-28", method, params)).toEqual([]);
  });

  it("does not go to a 2025-11-25 host that declared elicitation: {} or only form", () => {
    for (const elicitation of [{}, { form: {} }]) {
      expect(renderForHost(url(), host("2025-11-25", { elicitation }))).toEqual({
        sendable: false,
        reason: expect.stringMatching(/elicitation\.url/),
      });
    }
  });

  it("does not go to a 2025-06-18 host, whatever it declared", () => {
    for (const elicitation of [{}, { url: {} }]) {
      expect(renderForHost(url(), host("2025-06-18", { elicitation }))).toEqual({
        sendable: false,
        reason: expect.stringMatching(/2025-06-18 has no URL-mode elicitation/),
      });
    }
  });
});

describe("form-mode elicitation and declared modes", () => {
  it("does not go to a host that declared only url", () => {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      expect(renderForHost(plainForm(), host(revision, { elicitation: { url: {} } }))).toEqual({
        sendable: false,
        reason: expect.stringMatching(/only URL-mode/),
      });
    }
  });

  it("goes to hosts that declared form, explicitly or with an empty object", () => {
    for (const elicitation of [{}, { form: {} }, { form: {}, url: {} }]) {
      expect(renderForHost(plainForm(), host("2025-11-25", { elicitation })).sendable).toBe(true);
    }
  });

  it("does not go to a host that declared no elicitation", () => {
    for (const revision of REVISIONS) {
      expect(renderForHost(plainForm(), host(revision, { sampling: {}, roots: {} })).sendable).toBe(false);
    }
    expect(renderForHost(plainForm(), host("2025-06-18", {}))).toEqual({
      sendable: false,
      reason: 'the host did not declare the "elicitation" capability',
    });
  });
});

describe("revisions without elicitation", () => {
  it.each(["2024-11-05", "2025-03-26"] as const)("%s hosts never receive elicitation", (revision) => {
    const full = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
    for (const q of [plainForm(), url()]) {
      expect(renderForHost(q, host(revision, full))).toEqual({
        sendable: false,
        reason: `revision ${revision} has no elicitation`,
      });
    }
  });
});

describe("task metadata", () => {
  it("is never forwarded: it asked mcpx, not the host, to run the request as a task", () => {
    const q = form({ ok: { type: "boolean" } }, { task: { ttl: 60000 } });
    const target = host("2025-11-25", { elicitation: {}, tasks: { requests: { elicitation: { create: {} } } } });
    const { params } = sent(renderForHost(q, target, { nameServer: false }));
    const { task: _, ...rest } = q.params;
    expect(params).toEqual(rest);
  });
});

describe("nameServer", () => {
  it("prefixes form and url messages by default, and not when they name the server", () => {
    expect(sent(renderForHost(plainForm(), host("2025-06-18", { elicitation: {} }))).params.message).toBe("[crm] Please fill in your details");
    const named = form({}, { message: "crm needs your name" });
    expect(sent(renderForHost(named, host("2025-11-25", { elicitation: {} }))).params.message).toBe("crm needs your name");
  });

  it("relays the message verbatim with nameServer: false", () => {
    const q = plainForm();
    expect(sent(renderForHost(q, host("2025-11-25", { elicitation: {} }), { nameServer: false })).params).toEqual(q.params);
  });

  it("cannot name the server on a message that is not a string", () => {
    const q = form({}, { message: 42 });
    const target = host("2025-11-25", { elicitation: {} });
    expect(renderForHost(q, target)).toEqual({ sendable: false, reason: expect.stringMatching(/message/) });
    expect(renderForHost(q, target, { nameServer: false }).sendable).toBe(true);
  });
});
