/**
 * The page's in-tab credentials with identities: each is its identity's, and one identity
 * opening many tabs signs out only its own oldest, never the operator's or another's (without
 * the per-identity bound, 64 links of one signed-in person would sign everyone else out).
 */
import { afterEach, describe, expect, it } from "vitest";
import { PageSessions } from "../../src/api/page-sessions.js";
import { LOCAL_IDENTITY } from "../../src/broker/identity.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { tempStateDir } from "../helpers/questions-api.js";

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** Page sessions on a fresh store, as an instance has them. */
function freshSessions(): PageSessions {
  const store = SqliteStore.open(tempStateDir());
  opened.push(store);
  return new PageSessions(store.pageSessions);
}

const T0 = 1_800_000_000_000;

describe("page credentials per identity", () => {
  it("say whose tab they are", async () => {
    const sessions = freshSessions();
    const operator = (await sessions.open(T0)).token;
    const alice = (await sessions.open(T0, "https://id.example#alice")).token;
    expect(await sessions.identityOf(operator, T0 + 1)).toBe(LOCAL_IDENTITY);
    expect(await sessions.identityOf(alice, T0 + 1)).toBe("https://id.example#alice");
    expect(await sessions.identityOf(`${alice}x`, T0 + 1)).toBeUndefined();
  });

  it("one identity's many tabs sign out only its own oldest", async () => {
    const sessions = freshSessions();
    const operator = (await sessions.open(T0)).token;
    const bob = (await sessions.open(T0, "https://id.example#bob")).token;
    const alices: string[] = [];
    for (let i = 0; i < 100; i++) alices.push((await sessions.open(T0 + i, "https://id.example#alice")).token);
    expect(await sessions.valid(operator, T0 + 200)).toBe(true);
    expect(await sessions.valid(bob, T0 + 200)).toBe(true);
    expect(await sessions.valid(alices.at(-1), T0 + 200)).toBe(true);
    expect(await sessions.valid(alices[0], T0 + 200)).toBe(false);
    const stillIn = await Promise.all(alices.map((token) => sessions.valid(token, T0 + 200)));
    expect(stillIn.filter(Boolean)).toHaveLength(16);
  });
});
