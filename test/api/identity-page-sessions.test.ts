/**
 * The page's in-tab credentials with identities: each is its identity's, and one identity
 * opening many tabs signs out only its own oldest, never the operator's or another's (without
 * the per-identity bound, 64 links of one signed-in person would sign everyone else out).
 */
import { describe, expect, it } from "vitest";
import { PageSessions } from "../../src/api/page-sessions.js";
import { LOCAL_IDENTITY } from "../../src/broker/identity.js";

const T0 = 1_800_000_000_000;

describe("page credentials per identity", () => {
  it("say whose tab they are", () => {
    const sessions = new PageSessions();
    const operator = sessions.open(T0).token;
    const alice = sessions.open(T0, "https://id.example#alice").token;
    expect(sessions.identityOf(operator, T0 + 1)).toBe(LOCAL_IDENTITY);
    expect(sessions.identityOf(alice, T0 + 1)).toBe("https://id.example#alice");
    expect(sessions.identityOf(`${alice}x`, T0 + 1)).toBeUndefined();
  });

  it("one identity's many tabs sign out only its own oldest", () => {
    const sessions = new PageSessions();
    const operator = sessions.open(T0).token;
    const bob = sessions.open(T0, "https://id.example#bob").token;
    const alices = Array.from({ length: 100 }, (_, i) => sessions.open(T0 + i, "https://id.example#alice").token);
    expect(sessions.valid(operator, T0 + 200)).toBe(true);
    expect(sessions.valid(bob, T0 + 200)).toBe(true);
    expect(sessions.valid(alices.at(-1), T0 + 200)).toBe(true);
    expect(sessions.valid(alices[0], T0 + 200)).toBe(false);
    expect(alices.filter((token) => sessions.valid(token, T0 + 200))).toHaveLength(16);
  });
});
