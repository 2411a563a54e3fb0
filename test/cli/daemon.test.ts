/**
 * The daemon (docs/discovery.md, "The daemon"): `mcpx call` uses the mcpx serving its config,
 * found through a 0600 file in the state dir, starting a background `mcpx daemon` on first use;
 * stale records are replaced, concurrent first calls start one daemon, it exits when idle, and
 * only the credential of its file opens its routes. Real processes over loopback throughout.
 */
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp } from "../helpers/mcpx.js";
import { isAlive, runMcpx } from "../helpers/upstreams.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import {
  callEcho,
  daemonConfig,
  daemonsStarted,
  modeOf,
  recordFile,
  recordOf,
  spawnMcpx,
  startSharedDaemon,
  stateOf,
  stopDaemons,
  until,
} from "./daemon-support.js";

afterEach(stopDaemons);

/** One daemon for the tests that only use a running one, started by the first that asks. */
let shared: ReturnType<typeof startSharedDaemon> | undefined;
const sharedDaemon = () => (shared ??= startSharedDaemon());
afterAll(async () => {
  await (await shared)?.stop();
});

describe("mcpx call through the daemon", () => {
  it("the first call starts a daemon, recorded in a 0600 file; the second call uses the same daemon", async () => {
    const config = daemonConfig();
    const first = await callEcho(config, "one");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('{"label":"one"}\n');
    expect(first.stderr).toMatch(/started a daemon for .* \(pid \d+\)/);
    const record = recordOf(config)!;
    expect(record).toMatchObject({ kind: "daemon", configFile: config.file });
    expect(isAlive(record.pid)).toBe(true);
    expect(modeOf(recordFile(config)!)).toBe(0o600);

    const second = await callEcho(config, "two", "--json");
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ content: [{ type: "text", text: '{"label":"two"}' }] });
    expect(second.stderr).not.toMatch(/started a daemon/);
    expect(recordOf(config)!.pid).toBe(record.pid);
    // The daemon made the call, and recorded it where `mcpx result` finds it.
    const store = SqliteStore.open(stateOf(config));
    try {
      const calls = await Promise.all((await store.calls.idsStartingWith("", 10)).map(async (id) => (await store.calls.get(id))!));
      expect(calls.map((call) => [call.state, call.runnerPid])).toEqual([
        ["done", record.pid],
        ["done", record.pid],
      ]);
    } finally {
      await store.close();
    }
  });

  it("a config named relative to the command's folder is the same config for the daemon, which runs in the config's folder", async () => {
    const config = daemonConfig();
    const command = spawnMcpx(["call", "typed.echo", '{"label":"relative"}', "--config", join(basename(config.dir), "mcpx.json")], config, dirname(config.dir));
    expect(await command.exited, command.stderr()).toBe(0);
    expect(command.stdout()).toBe('{"label":"relative"}\n');
    expect(recordOf(config)).toMatchObject({ configFile: config.file });
    expect((await callEcho(config, "absolute")).stderr).not.toMatch(/started a daemon/);
  });

  it("key=value arguments are typed by the tool's schema, and a refused call says why with exit 2, as without a daemon", async () => {
    const config = daemonConfig();
    // Cold, a typo is refused here as ever, and starts no daemon.
    const cold = await runMcpx(["call", "typo.echo", "{}", "--config", config.file], config);
    expect(cold.code).toBe(2);
    expect(cold.stderr).toBe(`mcpx: no server named "typo" in ${config.file}; did you mean "typed"? (configured: typed)\n`);
    expect(recordFile(config)).toBeUndefined();
    const typed = await runMcpx(["call", "typed.echo", "count=3", "loud=true", "--config", config.file], config);
    expect(typed.code, typed.stderr).toBe(0);
    expect(JSON.parse(typed.stdout)).toEqual({ count: 3, loud: true });
    // Warm, the daemon refuses it with the same words and exit code.
    const unknown = await runMcpx(["call", "typo.echo", "{}", "--config", config.file], config);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(cold.stderr);
    const bad = await runMcpx(["call", "typed.echo", "{not json", "--config", config.file], config);
    expect(bad.code).toBe(2);
    const invalid = writeFileSync(config.file, '{"mcpServers": {"typed": {"command": 7}}}');
    expect(invalid).toBeUndefined();
    const broken = await runMcpx(["call", "typed.echo", "{}", "--config", config.file], config);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(`mcpx: ${config.file}: mcpServers.typed.command must be a non-empty string\n`);
  });

  it("a daemon killed with SIGKILL leaves a stale record, which the next call replaces", async () => {
    const config = daemonConfig();
    expect((await callEcho(config, "one")).code).toBe(0);
    const old = recordOf(config)!;
    process.kill(old.pid, "SIGKILL");
    await until("the daemon to be gone", () => (isAlive(old.pid) ? undefined : true));
    const next = await callEcho(config, "two");
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('{"label":"two"}\n');
    const replaced = recordOf(config)!;
    expect(replaced.pid).not.toBe(old.pid);
    expect(isAlive(replaced.pid)).toBe(true);
  });

  it("a record whose port answers with another credential (not the process it names) is replaced, and the call made once", async () => {
    const config = daemonConfig();
    expect((await callEcho(config, "one")).code).toBe(0);
    const old = recordOf(config)!;
    writeFileSync(recordFile(config)!, JSON.stringify({ ...old, credential: "f".repeat(64) }), { mode: 0o600 });
    const next = await callEcho(config, "two");
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('{"label":"two"}\n');
    const replaced = recordOf(config)!;
    expect(replaced.pid).not.toBe(old.pid);
    process.kill(old.pid, "SIGTERM"); // left by the test's forgery; a real one exits when idle
  });

  it("a changed config stops the daemon of the old one and starts one for the new", async () => {
    const config = daemonConfig();
    expect((await callEcho(config, "one")).code).toBe(0);
    const old = recordOf(config)!;
    writeFileSync(config.file, JSON.stringify({ mcpServers: { typed: nodeServer("typed-args-server.mjs"), again: nodeServer("typed-args-server.mjs") } }));
    const next = await runMcpx(["call", "again.echo", '{"label":"new"}', "--config", config.file], config);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('{"label":"new"}\n');
    const replaced = recordOf(config)!;
    expect(replaced.pid).not.toBe(old.pid);
    expect(replaced.configHash).not.toBe(old.configHash);
    await until("the old daemon to stop", () => (isAlive(old.pid) ? undefined : true));
  });

  it("calls started together start one daemon", async () => {
    const config = daemonConfig();
    const runs = await Promise.all(["a", "b", "c", "d"].map((label) => callEcho(config, label)));
    for (const [index, run] of runs.entries()) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`{"label":"${"abcd"[index]}"}\n`);
    }
    expect(runs.filter((run) => /started a daemon/.test(run.stderr))).toHaveLength(1);
    expect(daemonsStarted(config)).toBe(1);
  });

  it("exits after its idle time (daemon.idleMinutes), and removes its record", async () => {
    const config = daemonConfig({}, { daemon: { idleMinutes: 0.02 } }); // 1.2 s
    expect((await callEcho(config, "one")).code).toBe(0);
    const record = recordOf(config)!;
    await until("the idle daemon to exit", () => (isAlive(record.pid) ? undefined : true), 20_000);
    expect(recordFile(config)).toBeUndefined();
  });

  it("Ctrl-C at the command stops its call in the daemon (exit 1, as without one); the daemon and its upstream stay", async () => {
    const { config, pidFile } = await sharedDaemon();
    const command = spawnMcpx(["call", "typed.hang", "--config", config.file], config);
    const { readFileSync, existsSync } = await import("node:fs");
    const upstreamPid = await until("the upstream in the call", () =>
      existsSync(pidFile) && readFileSync(pidFile, "utf8") ? Number(readFileSync(pidFile, "utf8")) : undefined,
    );
    command.child.kill("SIGINT");
    expect(await command.exited).toBe(1);
    expect(command.stderr()).toContain("the call was stopped (SIGINT) before it finished");
    const record = recordOf(config)!;
    expect(isAlive(record.pid)).toBe(true);
    expect(isAlive(upstreamPid)).toBe(true); // warm for the next call
    expect((await callEcho(config, "after")).stdout).toBe('{"label":"after"}\n');
  });
});

describe("mcpx daemon status | stop", () => {
  it("status describes the running daemon; stop stops it and removes its record; status then says it is not running", async () => {
    const config = daemonConfig();
    const none = await runMcpx(["daemon", "status", "--config", config.file], config);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("not running");
    expect((await callEcho(config, "one")).code).toBe(0);
    const record = recordOf(config)!;

    const status = await runMcpx(["daemon", "status", "--json", "--config", config.file], config);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      kind: "daemon",
      pid: record.pid,
      configFile: config.file,
      idleMinutes: 10,
      callsInFlight: 0,
      servers: [{ name: "typed", state: "ready", tools: 2 }],
    });
    const text = await runMcpx(["daemon", "status", "--config", config.file], config);
    expect(text.stdout).toContain(`pid ${record.pid}`);

    const stop = await runMcpx(["daemon", "stop", "--config", config.file], config);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toContain(`stopped the mcpx daemon for ${config.file} (pid ${record.pid})`);
    expect(isAlive(record.pid)).toBe(false);
    expect(recordFile(config)).toBeUndefined();
    expect((await runMcpx(["daemon", "status", "--config", config.file], config)).code).toBe(1);
  });

  it("mcpx daemon run in the foreground refuses a second one for the same config", async () => {
    const { config } = await sharedDaemon();
    const second = await runMcpx(["daemon", "--config", config.file], config);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`already serves ${config.file} (pid ${recordOf(config)!.pid})`);
  });
});

describe("the daemon's routes", () => {
  it("refuse a request without the credential of the discovery file, or with another", async () => {
    const { config } = await sharedDaemon();
    const record = recordOf(config)!;
    const base = `http://127.0.0.1:${record.port}/v1/daemon`;
    const call = (headers: Record<string, string>) =>
      fetch(`${base}/call`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ callId: crypto.randomUUID(), target: "typed.echo", args: ["{}"] }),
        signal: AbortSignal.timeout(10_000),
      });
    const refused: Array<Record<string, string>> = [{}, { authorization: `Bearer ${"0".repeat(64)}` }, { authorization: `Bearer ${record.credential}x` }];
    for (const headers of refused) {
      const response = await call(headers);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    }
    // The API token of the state dir is not the daemon's credential either.
    const { readFileSync } = await import("node:fs");
    const apiToken = readFileSync(join(stateOf(config), "api-token"), "utf8").trim();
    expect((await call({ authorization: `Bearer ${apiToken}` })).status).toBe(401);
    const allowed = await call({ authorization: `Bearer ${record.credential}` });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ status: "ended", call: { state: "done" } });
  });

  it("refresh reads the catalogues again and says each server's tool count", async () => {
    const config = daemonConfig();
    const listed = join(config.dir, "tools.json");
    writeFileSync(listed, JSON.stringify(["first"]));
    writeFileSync(
      config.file,
      JSON.stringify({
        mcpServers: { typed: nodeServer("typed-args-server.mjs"), files: nodeServer("file-tools-server.mjs", [], { env: { FILE_TOOLS: listed } }) },
      }),
    );
    expect((await callEcho(config, "one")).code).toBe(0);
    const record = recordOf(config)!;
    const names = async () => {
      const response = await fetch(`http://127.0.0.1:${record.port}/v1/daemon/tools`, {
        headers: { authorization: `Bearer ${record.credential}` },
        signal: AbortSignal.timeout(10_000),
      });
      return ((await response.json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).filter((name) => name.startsWith("files__"));
    };
    // Read once the daemon has every server up (the call's own server may answer before the other's list is read).
    expect(await names()).toEqual(["files__first"]);
    // The server lists another tool now, and says nothing: the daemon knows only once it reads again.
    writeFileSync(listed, JSON.stringify(["first", "second"]));
    expect(await names()).toEqual(["files__first"]);
    const response = await fetch(`http://127.0.0.1:${record.port}/v1/daemon/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${record.credential}` },
      body: "{}",
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      servers: [
        { server: "typed", ok: true, state: "ready", tools: 2 },
        { server: "files", ok: true, state: "ready", tools: 2 },
      ],
    });
    expect(await names()).toEqual(["files__first", "files__second"]);
    const unknown = await fetch(`http://127.0.0.1:${record.port}/v1/daemon/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${record.credential}` },
      body: JSON.stringify({ server: "typo" }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(unknown.status).toBe(404);
  });

  it("servers and tools answer what mcpx servers --json and mcpx tools --json print, from the live upstreams", async () => {
    const { config } = await sharedDaemon();
    const record = recordOf(config)!;
    const get = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${record.port}/v1/daemon${path}`, {
        headers: { authorization: `Bearer ${record.credential}` },
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    const servers = (await get("/servers")) as Array<Record<string, unknown>>;
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: "typed", state: "ready", tools: 2, transport: "stdio", server: { name: "typed-args-server" } });
    const tools = await get("/tools");
    expect(tools).toEqual({
      tools: [
        { name: "typed__echo", server: "typed", tool: "echo", description: "Returns its arguments as JSON\nA second line that mcpx tools leaves out" },
        { name: "typed__hang", server: "typed", tool: "hang", description: "Never answers" },
      ],
      notUp: [],
    });
  });
});

describe("a serve --http on loopback serves the commands of its config", () => {
  it("it writes the discovery file, calls go through it and no daemon is started; it removes the file when it stops", async () => {
    const config = daemonConfig();
    const served = await startMcpxHttp(config);
    try {
      const record = await until("serve's record", () => recordOf(config));
      expect(record).toMatchObject({ kind: "serve", pid: served.child.pid });
      const run = await callEcho(config, "via serve");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('{"label":"via serve"}\n');
      expect(run.stderr).not.toMatch(/started a daemon/);
      const stop = await runMcpx(["daemon", "stop", "--config", config.file], config);
      expect(stop.code).toBe(1);
      expect(stop.stderr).toContain("is a mcpx serve --http");
    } finally {
      await served.close();
    }
    expect(recordFile(config)).toBeUndefined();
  });
});

describe("a serve --http beyond loopback", () => {
  it("writes no discovery file: its routes would cross the network, so commands start a daemon of their own", async () => {
    const config = daemonConfig();
    config.env.MCPX_HTTP_TOKEN = "t".repeat(40);
    const served = await startMcpxHttp(config, ["--host", "0.0.0.0"]);
    try {
      expect(recordFile(config)).toBeUndefined();
      const run = await callEcho(config, "own daemon");
      expect(run.code, run.stderr).toBe(0);
      expect(recordOf(config)).toMatchObject({ kind: "daemon" });
      expect(recordOf(config)!.pid).not.toBe(served.child.pid);
    } finally {
      await served.close();
    }
  });
});

describe("--no-daemon", () => {
  it("makes the call in a runner of its own, as before: no daemon and no record", async () => {
    const config = daemonConfig();
    const run = await callEcho(config, "alone", "--no-daemon");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"label":"alone"}\n');
    expect(recordFile(config)).toBeUndefined();
    const env = await runMcpx(["call", "typed.echo", '{"label":"env"}', "--config", config.file], config, { MCPX_NO_DAEMON: "1" });
    expect(env.stdout).toBe('{"label":"env"}\n');
    expect(recordFile(config)).toBeUndefined();
  });
});

describe("refresh, servers --live and tools --live through the daemon", () => {
  it("read on the daemon's running upstreams: refresh writes the schema cache that ls reads, and the live lists come from the daemon", async () => {
    const config = daemonConfig();
    const refreshed = await runMcpx(["refresh", "--json", "--config", config.file], config);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(/started a daemon/);
    expect(JSON.parse(refreshed.stdout)).toEqual([expect.objectContaining({ server: "typed", ok: true, tools: expect.any(Number) })]);
    const pid = recordOf(config)!.pid;
    // What the daemon read is in the cache before refresh returned: ls needs no server.
    const listed = await runMcpx(["ls", "--json", "--cached", "--config", config.file], config);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ server: "typed", state: "cached", tools: 2 })]);
    const tools = await runMcpx(["tools", "--live", "--json", "--config", config.file], config);
    expect(tools.code, tools.stderr).toBe(0);
    expect(JSON.parse(tools.stdout)).toContainEqual(expect.objectContaining({ name: "typed__echo", server: "typed", tool: "echo" }));
    const servers = await runMcpx(["servers", "--live", "--json", "--config", config.file], config);
    expect(servers.code, servers.stderr).toBe(0);
    expect(JSON.parse(servers.stdout)).toEqual([expect.objectContaining({ name: "typed", state: "ready" })]);
    // All three used the one daemon the refresh started.
    expect(recordOf(config)!.pid).toBe(pid);
    expect(`${tools.stderr}${servers.stderr}`).not.toMatch(/started a daemon/);
  });
});
