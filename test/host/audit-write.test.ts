/**
 * A call's audit entry is written beside the call, never in its way: `recordCall` returns at
 * once, and a store that cannot take the entry (here: closed under it) is logged, not thrown at
 * the call or left as an unhandled rejection.
 */
import { describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { recordCall } from "../../src/host/audit.js";
import type { Upstream } from "../../src/upstream/upstream.js";
import { createLogger, silentLogger } from "../../src/util/log.js";
import { tempStateDir } from "../broker/support.js";

/** Only what recordCall reads of an upstream: its name and its tools' schemas. */
const upstream = { name: "files", catalog: { tools: [{ name: "write", inputSchema: { type: "object" } }] } } as unknown as Upstream;

describe("a call's audit entry", () => {
  it("is in the store once written", async () => {
    const store = SqliteStore.open(tempStateDir());
    try {
      recordCall(
        new Broker(store, silentLogger),
        silentLogger,
        upstream,
        { name: "write", arguments: { password: "pw", path: "/a" } },
        {},
        { outcome: "ok", durationMs: 3 },
      );
      const [entry] = await store.audit.list();
      expect(entry).toMatchObject({
        kind: "call",
        server: "files",
        tool: "write",
        outcome: "ok",
        durationMs: 3,
        arguments: { password: "[redacted]", path: "/a" },
      });
    } finally {
      await store.close();
    }
  });

  it("that cannot be written is logged, and the call goes on", async () => {
    const store = SqliteStore.open(tempStateDir());
    const broker = new Broker(store, silentLogger);
    await store.close();
    const lines: string[] = [];
    const log = createLogger({}, "warn", (line) => lines.push(line));
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      expect(() => recordCall(broker, log, upstream, { name: "write", arguments: {} }, {}, { outcome: "ok", durationMs: 1 })).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("unhandledRejection", note);
    }
    expect(unhandled).toEqual([]);
    expect(lines.map((line) => JSON.parse(line) as { level: string; msg: string })).toMatchObject([
      { level: "warn", msg: "could not add the call to the audit trail" },
    ]);
  });
});
