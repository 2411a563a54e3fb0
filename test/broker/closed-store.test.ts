/**
 * A broker whose store was closed without stopping the broker (a caller's slip, or a test that
 * shares its process with others): its question timers and its sweep find the store closed and
 * do nothing, rather than throw from a timer where nobody can catch it.
 */
import { describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { silentLogger } from "../../src/util/log.js";
import { profileForm, tempStateDir } from "./support.js";

describe("a broker outliving its store", () => {
  it("lets a question's expiry and the sweep pass without throwing", async () => {
    const store = SqliteStore.open(tempStateDir());
    const broker = new Broker(store, silentLogger);
    await broker.open(profileForm(), {}, 0.2);
    await store.close();
    const thrown: unknown[] = [];
    const record = (error: unknown): void => void thrown.push(error);
    process.on("uncaughtException", record);
    process.on("unhandledRejection", record);
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await expect(broker.sweep()).resolves.toBeUndefined();
    } finally {
      process.off("uncaughtException", record);
      process.off("unhandledRejection", record);
    }
    expect(thrown).toEqual([]);
  });
});
