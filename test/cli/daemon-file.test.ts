/**
 * What the daemon's discovery file says of the config it runs, and how a command checks it
 * without node:crypto on the warm path (cli/daemon-file.ts): the file's stat stands for its
 * bytes only when it was recorded once the file had been left alone (QUIET_MS), and any write
 * since gives another stat; otherwise the bytes are hashed, as before. Real files throughout.
 */
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configHash, configSeen, daemonPaths, QUIET_MS, sameConfig } from "../../src/cli/daemon-file.js";
import { commandId } from "../../src/cli/daemon-id.js";
import { COMMAND_ID } from "../../src/cli/daemon-questions.js";

const dir = mkdtempSync(join(tmpdir(), "mcpx-daemon-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function configFile(content: string): string {
  const file = join(dir, `mcpx-${files++}.json`);
  writeFileSync(file, content);
  return file;
}

/** What a daemon would record had it read `file` once the file was quiet (as it is QUIET_MS later). */
function recordedLater(file: string): { configHash: string; configStat?: string } {
  const seen = configSeen(file, Date.now() + QUIET_MS + 1_000)!;
  return { configHash: seen.hash, ...(seen.stat !== undefined ? { configStat: seen.stat } : {}) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the config a daemon runs, as its record says", () => {
  it("a file changed just now gets no stat in the record (a write in the same clock tick could keep it); one left alone does", () => {
    const file = configFile('{"mcpServers": {}}');
    const now = configSeen(file)!;
    expect(now.hash).toBe(configHash(file));
    expect(now.stat).toBeUndefined();
    expect(recordedLater(file).configStat).toMatch(/^\d+:\d+:\d+:\d+:\d+$/);
    expect(configSeen(join(dir, "missing.json"))).toBeUndefined();
  });

  it("the same stat stands for the bytes: the hash is not what decides", () => {
    const file = configFile('{"mcpServers": {"a": {"command": "x"}}}');
    const record = recordedLater(file);
    expect(sameConfig({ ...record, configHash: "0".repeat(64) }, file)).toBe(true);
    expect(sameConfig(record, file)).toBe(true);
  });

  it("a rewrite in place of the same size, its mtime put back, is noticed (ctime is in the stat)", async () => {
    const file = configFile('{"mcpServers": {"a": {"command": "x"}}}');
    const second = Math.floor(Date.now() / 1000) - 60; // whole seconds: put back to the nanosecond
    utimesSync(file, second, second);
    const before = statSync(file, { bigint: true });
    const record = recordedLater(file);
    await sleep(50); // past the clock's tick
    writeFileSync(file, '{"mcpServers": {"b": {"command": "y"}}}');
    utimesSync(file, second, second);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(sameConfig(record, file)).toBe(false);
  });

  it("another stat falls back to the hash: a file touched or copied over with the same bytes is the same config", async () => {
    const content = '{"mcpServers": {"a": {"command": "x"}}}';
    const file = configFile(content);
    const record = recordedLater(file);
    await sleep(50);
    utimesSync(file, new Date(), new Date());
    expect(sameConfig(record, file)).toBe(true);
    rmSync(file);
    writeFileSync(file, content); // another inode
    expect(sameConfig(record, file)).toBe(true);
    writeFileSync(file, `${content} `);
    expect(sameConfig(record, file)).toBe(false);
    rmSync(file);
    expect(sameConfig(record, file)).toBe(false);
  });

  it("a record without a stat is checked by the hash alone", () => {
    const file = configFile("{}");
    const { configHash: hash } = recordedLater(file);
    expect(sameConfig({ configHash: hash }, file)).toBe(true);
    expect(sameConfig({ configHash: "0".repeat(64) }, file)).toBe(false);
  });
});

describe("the daemon's key and a call's id, without node:crypto", () => {
  it("the key is the config's absolute path's: 16 hex digits, the same however the path is spelled, another for another file", () => {
    const file = join(dir, "mcpx.json");
    const { file: record } = daemonPaths("/state", file);
    expect(record).toMatch(/^\/state\/daemon-[0-9a-f]{16}\.json$/);
    expect(daemonPaths("/state", relative(process.cwd(), file)).file).toBe(record);
    expect(daemonPaths("/state", join(dir, "other.json")).file).not.toBe(record);
    expect(daemonPaths("/state", file)).toEqual({ file: record, lock: record.replace(/json$/, "lock"), log: record.replace(/json$/, "log") });
  });

  it("a call's id is a version 4 UUID the daemon takes, a new one each time", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => commandId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(COMMAND_ID);
    expect([...ids].every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
  });
});
