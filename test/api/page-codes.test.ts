/**
 * The page's one-time codes: one port, one use, CODE_TTL_MS, and never for a later instance.
 * A used code stays used for every instance on the state dir, a restarted one included (the
 * used codes are kept in the store until they expire).
 */
import { afterEach, describe, expect, it } from "vitest";
import { CODE_TTL_MS, mintPageCode, PageCodes } from "../../src/api/page-codes.js";
import { PageSessions, SESSION_TTL_MS } from "../../src/api/page-sessions.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { startUi, tempStateDir, type RunningUi } from "../helpers/questions-api.js";

const KEY = "k".repeat(64);
const T0 = 1_800_000_000_000;

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** The used codes of a store on `dir` (a fresh state dir by default), as an instance has them. */
function usedIn(dir = tempStateDir()): SqliteStore["usedPageCodes"] {
  const store = SqliteStore.open(dir);
  opened.push(store);
  return store.usedPageCodes;
}

/** The page sessions of a store on `dir`, as another instance on it has them. */
function sessionsIn(dir = tempStateDir()): SqliteStore["pageSessions"] {
  const store = SqliteStore.open(dir);
  opened.push(store);
  return store.pageSessions;
}

describe("page codes", () => {
  it("are good once, for their port, with the right key", async () => {
    const codes = new PageCodes(KEY, usedIn(), T0);
    const code = mintPageCode(KEY, 7777, T0 + 1000);
    expect(await codes.redeem(code, 7778, T0 + 2000)).toBe(false);
    expect(await new PageCodes("x".repeat(64), usedIn(), T0).redeem(code, 7777, T0 + 2000)).toBe(false);
    expect(await codes.redeem(code, 7777, T0 + 2000)).toBe(true);
    expect(await codes.redeem(code, 7777, T0 + 3000)).toBe(false);
  });

  it("expire, and are refused by an instance started after they were minted", async () => {
    const codes = new PageCodes(KEY, usedIn(), T0);
    expect(await codes.redeem(mintPageCode(KEY, 7777, T0), 7777, T0 + CODE_TTL_MS + 1)).toBe(false);
    const beforeRestart = mintPageCode(KEY, 7777, T0);
    expect(await new PageCodes(KEY, usedIn(), T0 + 60_000).redeem(beforeRestart, 7777, T0 + 61_000)).toBe(false);
  });

  it("refuse anything malformed or tampered with", async () => {
    const codes = new PageCodes(KEY, usedIn(), T0);
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
      expect(await codes.redeem(bad, 7777, T0 + 1000)).toBe(false);
    }
  });
});

// Issue 13 item 11: used codes lived in memory, so an instance restarted within the clock
// allowance (5 s) of a code's minting accepted it again, even a code already used.
describe("a used code, for every instance on the state dir", () => {
  it("is refused by a second instance (a restart) on the same state dir, started within the clock allowance", async () => {
    const dir = tempStateDir();
    const code = mintPageCode(KEY, 7777, T0 + 1000);
    expect(await new PageCodes(KEY, usedIn(dir), T0).redeem(code, 7777, T0 + 2000)).toBe(true);
    const restarted = new PageCodes(KEY, usedIn(dir), T0 + 3000);
    expect(await restarted.redeem(code, 7777, T0 + 3500)).toBe(false);
    // It still takes codes of its own.
    expect(await restarted.redeem(mintPageCode(KEY, 7777, T0 + 4000), 7777, T0 + 4500)).toBe(true);
  });

  it("is kept only until it expires: the store holds no more than the codes that could still be used", async () => {
    const dir = tempStateDir();
    const used = usedIn(dir);
    const codes = new PageCodes(KEY, used, T0);
    for (let i = 0; i < 5; i++) expect(await codes.redeem(mintPageCode(KEY, 7777, T0 + i), 7777, T0 + 10)).toBe(true);
    expect(await used.count()).toBe(5);
    expect(await codes.redeem(mintPageCode(KEY, 7777, T0 + CODE_TTL_MS + 100), 7777, T0 + CODE_TTL_MS + 200)).toBe(true);
    expect(await used.count()).toBe(1);
  });

  it("two real `mcpx ui` processes, one after the other on the same port and state dir: the second refuses the code the first took", async () => {
    const dir = tempStateDir();
    const first = await startUi(dir);
    running.push(first);
    const port = Number(first.base.port);
    // Issued at the edge of the clock allowance, so a second instance started within seconds is
    // inside it (as a quick restart is): only the store can tell it the code was used.
    const code = mintPageCode(first.token, port, Date.now() + 4_000);
    expect(await trade(first, code)).toBe(200);
    await first.close();

    const second = await startUi(dir, ["--port", String(port)]);
    running.push(second);
    expect(Number(second.base.port)).toBe(port);
    expect(await trade(second, code)).toBe(401);
    expect(await trade(second, second.link.hash.replace(/^#code=/, ""))).toBe(200);
  });
});

const running: RunningUi[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((ui) => ui.close()));
});

async function trade(ui: RunningUi, code: string): Promise<number> {
  const response = await fetch(new URL("/v1/page-session", ui.base), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("page sessions", () => {
  it("are random, known to every instance on the store and to no other store, and end after SESSION_TTL_MS", async () => {
    const dir = tempStateDir();
    const sessions = new PageSessions(sessionsIn(dir));
    const { token } = await sessions.open(T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessions.valid(token, T0 + 1)).toBe(true);
    expect(await sessions.valid(`${token}x`, T0 + 1)).toBe(false);
    expect(await new PageSessions(sessionsIn(dir)).valid(token, T0 + 1)).toBe(true);
    expect(await new PageSessions(sessionsIn()).valid(token, T0 + 1)).toBe(false);
    expect(await sessions.valid(token, T0 + SESSION_TTL_MS)).toBe(false);
  });
});

describe("page codes in a cluster (cluster.publicUrl)", () => {
  it("are taken by an instance started after they were minted, still once across instances", async () => {
    const dir = tempStateDir();
    const code = mintPageCode(KEY, 443, T0);
    const joinedLater = new PageCodes(KEY, usedIn(dir), T0 + 60_000, { cluster: true });
    expect(await joinedLater.redeem(code, 443, T0 + 61_000)).toBe(true);
    const another = new PageCodes(KEY, usedIn(dir), T0 + 120_000, { cluster: true });
    expect(await another.redeem(code, 443, T0 + 121_000)).toBe(false);
    expect(await another.redeem(mintPageCode(KEY, 443, T0), 443, T0 + CODE_TTL_MS + 1)).toBe(false);
  });
});
