/**
 * The SQLite store as a `BrokerStore`: where it is, whose writes `onChange` reports (another
 * process's, within a poll; never its own), the shared secrets as the state directory's files,
 * the liveness of an owner as its process's, and `openStore` choosing it when no URL is given.
 */
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/broker/open-store.js";
import { SqliteStore, STORE_FILE } from "../../src/broker/sqlite/sqlite-store.js";
import { REQUEST_STATE_KEY_FILE, TOKEN_FILE } from "../../src/broker/token.js";
import { deadPid, openBroker, profileForm, runChild, tempStateDir, within, type OpenBroker } from "./support.js";

let open: OpenBroker | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("the SQLite store", () => {
  it("is the state directory's file, and what openStore gives without a URL", async () => {
    const dir = tempStateDir();
    const store = await openStore({ stateDir: dir });
    try {
      expect(store).toBeInstanceOf(SqliteStore);
      expect(store.where).toBe(join(dir, STORE_FILE));
      expect(store.stateDir).toBe(dir);
      expect(store.open).toBe(true);
      expect(await store.unwritable()).toBeUndefined();
    } finally {
      await store.close();
    }
    expect(store.open).toBe(false);
  });

  it("reports another process's write through onChange, and not its own", async () => {
    open = openBroker();
    const { store, broker } = open;
    const asked = await broker.open(profileForm(), {}, 60);
    let heard = 0;
    let firstHeard: () => void = () => {};
    const heardOnce = new Promise<void>((resolve) => (firstHeard = resolve));
    const unlisten = store.onChange(() => {
      heard += 1;
      firstHeard();
    });
    try {
      await broker.open(profileForm(), {}, 60); // its own write
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(heard, "its own write is not another's").toBe(0);
      expect((await runChild(["answer", open.dir, asked.id, "cli"])).ok).toBe(true);
      await within(heardOnce, 1000, "the store reporting the other process's answer");
      expect((await store.questions.get(asked.id))?.answer?.by).toBe("cli");
    } finally {
      unlisten();
    }
    const after = heard;
    await runChild(["answer", open.dir, (await broker.open(profileForm(), {}, 60)).id, "cli"]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(heard, "nothing is reported once unsubscribed").toBe(after);
  });

  it("writes audit entries appended together in one go, all of them in order, and those still waiting when it closes", async () => {
    const dir = tempStateDir();
    const store = SqliteStore.open(dir);
    const entry = (n: number) => ({ kind: "call" as const, identity: "local", server: "files", tool: "write", outcome: `ok ${n}` });
    const appended = Array.from({ length: 200 }, (_, n) => store.audit.append(entry(n)));
    // Read before the loop turned: the reader writes what waits first.
    expect((await store.audit.list()).map((row) => row.outcome)).toEqual(Array.from({ length: 200 }, (_, n) => `ok ${n}`));
    await Promise.all(appended);
    void store.audit.append(entry(200));
    await store.close();
    const again = SqliteStore.open(dir);
    try {
      expect((await again.audit.list()).map((row) => row.outcome).at(-1)).toBe("ok 200");
    } finally {
      await again.close();
    }
  });

  it("shares the state directory's secrets: the API token and the requestState key, as their files hold them", async () => {
    const dir = tempStateDir();
    const store = SqliteStore.open(dir);
    try {
      const token = await store.secrets.get("api-token");
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(join(dir, TOKEN_FILE), "utf8").trim()).toBe(token);
      expect(await store.secrets.get("api-token")).toBe(token);
      const key = await store.secrets.get("request-state-key");
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(key).not.toBe(token);
      expect(readFileSync(join(dir, REQUEST_STATE_KEY_FILE), "utf8").trim()).toBe(key);
      // Any other is a file of its own beside them; a name that is not a plain file name is refused.
      const other = await store.secrets.get("something-else");
      expect(readFileSync(join(dir, "something-else"), "utf8").trim()).toBe(other);
      await expect(store.secrets.get("../mcpx.db")).rejects.toThrow(/a shared secret's name is lowercase letters/);
    } finally {
      await store.close();
    }
  });

  it("says an owner is alive while its process runs", async () => {
    const store = SqliteStore.open(tempStateDir());
    try {
      expect(await store.liveness.alive({ pid: process.pid, instance: "this" })).toBe(true);
      expect(await store.liveness.alive({ pid: await deadPid(), instance: "gone" })).toBe(false);
      await store.liveness.join({ pid: process.pid, instance: "this" })(); // nothing to announce on one machine
    } finally {
      await store.close();
    }
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("openStore with a URL", () => {
  it("refuses a URL that is not redis:// or rediss://", async () => {
    await expect(openStore({ stateDir: tempStateDir(), url: "http://127.0.0.1:6379" })).rejects.toMatchObject({
      code: "STORE_UNAVAILABLE",
      message: expect.stringContaining("redis:// or rediss://"),
    });
  });

  it("opens the Redis store for a redis:// URL, and one that cannot be reached is refused at once, without the URL's password", async () => {
    const started = Date.now();
    const refused = openStore({ stateDir: tempStateDir(), url: `redis://mcpx:hunter2@127.0.0.1:${await closedPort()}` });
    await expect(refused).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining("hunter2") });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
