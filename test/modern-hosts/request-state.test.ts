/** The signed requestState mcpx gives modern hosts: what it accepts and what it refuses. */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { digest, RequestStateSigner } from "../../src/host/modern/request-state.js";

const binding = { method: "tools/call", target: "asking__ask_form", args: digest({ message: "hi", n: 1 }) };

describe("RequestStateSigner", () => {
  it("accepts its own state, for the request it belongs to, until it expires", () => {
    let now = 1_000;
    const signer = new RequestStateSigner(randomBytes(32), () => now);
    const state = signer.sign({ call: "c1", round: 1, ...binding, expiresAt: 5_000 });
    expect(signer.verify(state, binding)).toMatchObject({ call: "c1", round: 1 });
    now = 5_000;
    expect(signer.verify(state, binding)).toEqual({ refused: expect.stringMatching(/expired/) });
  });

  it("refuses a state signed with another key, a changed one, and one for another request", () => {
    const signer = new RequestStateSigner(randomBytes(32));
    const state = signer.sign({ call: "c1", round: 1, ...binding, expiresAt: Date.now() + 60_000 });
    expect(new RequestStateSigner(randomBytes(32)).verify(state, binding)).toEqual({ refused: expect.stringMatching(/verification/) });
    const [body, mac] = state.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), round: 2 })).toString("base64url");
    expect(signer.verify(`${forged}.${mac}`, binding)).toEqual({ refused: expect.stringMatching(/verification/) });
    expect(signer.verify(state, { ...binding, args: digest({ message: "other" }) })).toEqual({ refused: expect.stringMatching(/another request/) });
    expect(signer.verify(42, binding)).toEqual({ refused: expect.any(String) });
  });

  it("digests arguments whatever the order of their keys", () => {
    expect(digest({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(digest({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(digest({ a: 1 })).not.toBe(digest({ a: 2 }));
  });
});
