/**
 * The schema cache shared through the config's Redis store, with the built CLI and a real
 * redis-server: a catalogue read through one state directory (an SDK 1.x stdio server that
 * records each start) is listed and searched through another without the server being started;
 * `serve` puts what it reads there and fetches, at start, what its state directory lacks; a
 * changed definition is read again, never answered with the old one's entry; with Redis away
 * or hung the CLI reads the catalogue itself, promptly.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LsEntry } from "../../src/cli/ls.js";
import type { SearchEntry } from "../../src/cli/search.js";
import { fixture, startMcpxHttp, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { freePort, redisInstalled, RedisServer } from "../helpers/redis-server.js";
import { readRecord, runMcpx } from "../helpers/upstreams.js";

describe.skipIf(!redisInstalled)("the schema cache shared by state directories on one Redis", () => {
  let redis: RedisServer;
  let url: string;
  /** Where the server records its starts; its folder is also the servers' cwd (part of their definition). */
  const work = mkdtempSync(join(tmpdir(), "mcpx-shared-cli-"));
  const record = join(work, "starts.jsonl");
  const starts = (): number => readRecord(record).filter((event) => event.event === "start").length;
  /** The faulty server (SDK 1.x, stdio), defined the same way in every config but for `extra`. */
  const faulty = (extraArgs: string[] = [], recordTo = record): object => ({
    command: process.execPath,
    args: [fixture("faulty-server.mjs"), ...extraArgs],
    cwd: work,
    env: { FAULTY_RECORD: recordTo },
  });
  /** A config with its own state directory on the shared store. */
  const instance = (server: object, storeUrl = url): TempConfig => writeConfig({ mcpServers: { faulty: server }, store: { url: storeUrl } });
  const mcpx = (config: TempConfig, ...args: string[]) => runMcpx([...args, "--config", config.file], config);
  const ls = async (config: TempConfig, ...args: string[]): Promise<{ entry: LsEntry; stderr: string }> => {
    const run = await mcpx(config, "ls", "--json", ...args);
    expect(run.code, run.stderr).toBe(0);
    return { entry: (JSON.parse(run.stdout) as LsEntry[])[0]!, stderr: run.stderr };
  };

  beforeAll(async () => {
    redis = await RedisServer.start();
    url = `${redis.url}/?prefix=${encodeURIComponent(`t${randomUUID()}:`)}`;
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it("a catalogue read through one state directory is listed and searched through another without starting the server", async () => {
    const first = instance(faulty());
    const read = await ls(first);
    expect(read.stderr).toContain("faulty was never read; reading its catalogue once now");
    expect(read.entry).toMatchObject({ state: "cached", tools: 5 });
    expect(starts()).toBe(1);

    const second = instance(faulty());
    const listed = await ls(second);
    expect(listed.entry).toMatchObject({ server: "faulty", state: "cached", tools: 5, readAt: read.entry.readAt });
    expect(listed.stderr).not.toContain("never read");
    const found = await mcpx(second, "search", "environment", "working", "directory", "--json");
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as SearchEntry[])[0]).toMatchObject({ name: "faulty__echo_env", server: "faulty" });
    const again = await ls(second);
    expect(again.stderr).toBe("");
    expect(starts()).toBe(1);
  });

  it("a changed definition is read again, not answered with the store's old entry", async () => {
    const before = starts();
    const changed = instance(faulty(["--changed"]));
    const read = await ls(changed);
    expect(read.stderr).toContain("faulty was never read; reading its catalogue once now");
    expect(starts()).toBe(before + 1);
    expect(
      readRecord(record)
        .filter((event) => event.event === "start")
        .at(-1),
    ).toMatchObject({ event: "start", args: ["--changed"] });
  });

  it("mcpx refresh (in process) puts what it reads in the store", async () => {
    const refreshed = instance(faulty(["--refreshed"]));
    const before = starts();
    const run = await mcpx(refreshed, "refresh");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("faulty: 5 tools");
    const { entry, stderr } = await ls(instance(faulty(["--refreshed"])));
    expect(entry).toMatchObject({ state: "cached", tools: 5 });
    expect(stderr).not.toContain("never read");
    expect(starts()).toBe(before + 1);
  });

  it("serve puts what it reads in the store, and fetches at start what its state directory lacks", async () => {
    const served = instance(faulty(["--served"]));
    const before = starts();
    const serving = await startMcpxHttp(served);
    try {
      // Up, and its read written (and put in the store) by the gateway.
      await serving.waitForLog(/"msg":"upstream ready"/);
      expect(starts()).toBe(before + 1);
      const elsewhere = instance(faulty(["--served"]));
      for (let tries = 0; ; tries++) {
        const { entry } = await ls(elsewhere, "--cached");
        if (entry.state === "cached") {
          expect(entry.tools).toBe(5);
          break;
        }
        if (tries > 50) throw new Error("the entry serve read never reached the store");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(starts()).toBe(before + 1);
    } finally {
      await serving.close();
    }

    // A serve whose server cannot start here (its record cannot be written): it lists the tools read elsewhere.
    const broken = instance(faulty(["--served"], join(work, "missing", "starts.jsonl")));
    const second = await startMcpxHttp(broken);
    try {
      await second.waitForLog("schema cache entries fetched from the shared store");
      const { entry } = await ls(broken, "--cached");
      expect(entry.tools).toBe(5);
    } finally {
      await second.close();
    }
  });

  it("with Redis unreachable, the CLI reads the catalogue itself, promptly", async () => {
    const away = instance(faulty(), `redis://127.0.0.1:${await freePort()}/`);
    const before = starts();
    const started = Date.now();
    const read = await ls(away);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(read.stderr).toContain("the shared schema cache cannot be used");
    expect(read.stderr).toContain("faulty was never read; reading its catalogue once now");
    expect(read.entry).toMatchObject({ state: "cached", tools: 5 });
    expect(starts()).toBe(before + 1);
  });

  it("with Redis hung (it accepts, never answers), the CLI reads the catalogue itself, promptly", async () => {
    const hung = instance(faulty());
    const before = starts();
    redis.pause();
    try {
      const started = Date.now();
      const read = await ls(hung);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(read.stderr).toContain("the shared schema cache cannot be used");
      expect(read.entry).toMatchObject({ state: "cached", tools: 5 });
      expect(starts()).toBe(before + 1);
    } finally {
      redis.resume();
    }
  });
});
