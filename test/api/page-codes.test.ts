/** The page's one-time codes as units: one port, one use, CODE_TTL_MS, and never for a later instance. */
import { describe, expect, it } from "vitest";
import { CODE_TTL_MS, mintPageCode, PageCodes } from "../../src/api/page-codes.js";
import { PageSessions, SESSION_TTL_MS } from "../../src/api/page-sessions.js";

const KEY = "k".repeat(64);
const T0 = 1_800_000_000_000;

describe("page codes", () => {
  it("are good once, for their port, with the right key", () => {
    const codes = new PageCodes(KEY, T0);
    const code = mintPageCode(KEY, 7777, T0 + 1000);
    expect(codes.redeem(code, 7778, T0 + 2000)).toBe(false);
    expect(new PageCodes("x".repeat(64), T0).redeem(code, 7777, T0 + 2000)).toBe(false);
    expect(codes.redeem(code, 7777, T0 + 2000)).toBe(true);
    expect(codes.redeem(code, 7777, T0 + 3000)).toBe(false);
  });

  it("expire, and are refused by an instance started after they were minted", () => {
    const codes = new PageCodes(KEY, T0);
    expect(codes.redeem(mintPageCode(KEY, 7777, T0), 7777, T0 + CODE_TTL_MS + 1)).toBe(false);
    const beforeRestart = mintPageCode(KEY, 7777, T0);
    expect(new PageCodes(KEY, T0 + 60_000).redeem(beforeRestart, 7777, T0 + 61_000)).toBe(false);
  });

  it("refuse anything malformed or tampered with", () => {
    const codes = new PageCodes(KEY, T0);
    const [issued, nonce, mac] = mintPageCode(KEY, 7777, T0).split(".");
    for (const bad of [
      undefined,
      42,
      "",
      "a.b",
      `${issued}.${nonce}`,
      `${Number(issued) + 1}.${nonce}.${mac}`,
      `${issued}.${nonce}x.${mac}`,
      `${issued}.${nonce}.${mac}.x`,
      "x".repeat(300),
    ]) {
      expect(codes.redeem(bad, 7777, T0 + 1000)).toBe(false);
    }
  });
});

describe("page sessions", () => {
  it("are random, known only to the instance that opened them, and end after SESSION_TTL_MS", () => {
    const sessions = new PageSessions();
    const { token } = sessions.open(T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.valid(token, T0 + 1)).toBe(true);
    expect(sessions.valid(`${token}x`, T0 + 1)).toBe(false);
    expect(new PageSessions().valid(token, T0 + 1)).toBe(false);
    expect(sessions.valid(token, T0 + SESSION_TTL_MS)).toBe(false);
  });
});
