/**
 * `mcpx exec` and `mcpx run` through the daemon (docs/scripts.md): the script's output on
 * stdout, its errors apart on stderr, the value it returns after; `--json` one envelope; the
 * run recorded in the store as a call (server "mcpx"), made by the daemon; the source never
 * echoed. Real SDK upstreams over stdio, a real daemon over loopback.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { nodeServer, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { daemonConfig, recordOf, spawnMcpx, stateOf, stopDaemons, until } from "./daemon-support.js";

let config: TempConfig;
beforeAll(async () => {
  config = daemonConfig({ issues: nodeServer("issues-server.mjs") });
});
afterAll(stopDaemons);

const exec = (code: string, ...rest: string[]) => runMcpx(["exec", code, "--config", config.file, ...rest], config);

async function storedRun(runId: string) {
  const store = SqliteStore.open(stateOf(config));
  try {
    return await store.calls.get(runId);
  } finally {
    await store.close();
  }
}

async function lastRunId(): Promise<string> {
  const store = SqliteStore.open(stateOf(config));
  try {
    const runs = (await Promise.all((await store.calls.idsStartingWith("", 1000)).map(async (id) => (await store.calls.get(id))!))).filter(
      (call) => call.server === "mcpx",
    );
    return runs.at(-1)!.id;
  } finally {
    await store.close();
  }
}

describe("mcpx exec through the daemon", () => {
  it("prints what the script prints, then the value it returns; what it prints as errors goes to stderr; the source is never echoed", async () => {
    const code = `// SOURCE-MARKER-7f3a
const found = await issues.search_issues({ query: "billing" });
const first = JSON.parse(textOf(await issues.get_issue({ id: found.items[0].id })));
const user = JSON.parse(textOf(await issues.get_user({ login: first.author })));
console.log(found.items.length + " billing issues; the first filed by " + user.name);
console.warn("a warning");
return { first: first.id };`;
    const run = await exec(code);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('10 billing issues; the first filed by Alan Turing\n{\n  "first": 4\n}\n');
    expect(run.stderr).toContain("a warning\n");
    expect(run.stdout + run.stderr).not.toContain("SOURCE-MARKER-7f3a");
    // The daemon ran it, and the store has it as a call of "mcpx" without its source.
    const stored = (await storedRun(await lastRunId()))!;
    expect(stored).toMatchObject({ server: "mcpx", tool: "exec", state: "done", runnerPid: recordOf(config)!.pid });
    expect(stored.arguments).toEqual({ filename: "exec.ts", language: "ts", bytes: Buffer.byteLength(code), args: [] });
    expect(JSON.stringify(stored)).not.toContain("SOURCE-MARKER-7f3a");
  });

  it("--json: one envelope with ok, output, value, error, calls (server, tool, duration, outcome) and stderr", async () => {
    const run = await exec(
      'const r = await issues.search_issues({ query: "search" }); console.log(r.items.length); console.error("e"); return r.items[0]',
      "--json",
    );
    expect(run.code, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(["calls", "error", "ok", "output", "stderr", "value"]);
    expect(envelope).toMatchObject({ ok: true, output: "20\n", stderr: "e\n", error: null, value: { id: 2, title: "Search ranks result 2 too low" } });
    expect(envelope.calls).toEqual([{ server: "issues", tool: "search_issues", durationMs: expect.any(Number), outcome: "ok" }]);
  });

  it("a script that fails exits 1 and says why, with the tool and its message for a tool error; --json has it as error", async () => {
    const thrown = await exec('console.log("before"); throw new Error("boom")');
    expect(thrown.code).toBe(1);
    expect(thrown.stdout).toBe("before\n");
    expect(thrown.stderr).toContain("mcpx: exec.ts");
    expect(thrown.stderr).toContain("boom");
    const tool = await exec('await issues.fail({ message: "the tracker is down" })');
    expect(tool.code).toBe(1);
    expect(tool.stderr).toMatch(/^mcpx: exec\.ts(:\d+)?: tool error from issues\.fail: the tracker is down\n$/m);
    const json = await exec('await issues.fail({ message: "down again" })', "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { kind: "thrown", server: "issues", tool: "fail", message: expect.stringContaining("down again") },
      calls: [{ server: "issues", tool: "fail", outcome: "tool error" }],
    });
  });

  it("mcpx run FILE.ts ARGS: TypeScript with types, args after --, and a .js file; another kind of file is refused (exit 2)", async () => {
    const ts = join(config.dir, "report.ts");
    writeFileSync(
      ts,
      "interface Hit { id: number }\nconst query: string = args[0]!;\nconst hits: Hit[] = (await issues.search_issues({ query })).items;\nconsole.log(`${args[1]}: ${hits.length}`);\n",
    );
    const run = await runMcpx(["run", ts, "--config", config.file, "--", "billing", "--label"], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("--label: 10\n");
    const js = join(config.dir, "plain.js");
    writeFileSync(js, "console.log(args.length); return args;\n");
    const plain = await runMcpx(["run", js, "a", "b", "--json", "--config", config.file], config);
    expect(JSON.parse(plain.stdout)).toMatchObject({ ok: true, output: "2\n", value: ["a", "b"] });
    const other = await runMcpx(["run", join(config.dir, "notes.txt"), "--config", config.file], config);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("mcpx run takes a TypeScript (.ts) or JavaScript (.js) file");
    const missing = await runMcpx(["run", join(config.dir, "gone.ts"), "--config", config.file], config);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
  });

  it("mcpx exec - reads the script from stdin", async () => {
    const { spawnSync } = await import("node:child_process");
    const { MCPX_BIN } = await import("../helpers/mcpx.js");
    const run = spawnSync(process.execPath, [MCPX_BIN, "exec", "-", "--config", config.file], {
      env: config.env,
      input: 'const r = await issues.search_issues({ query: "billing" });\nconsole.log(r.items.length);\n',
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("10\n");
  });

  it("Ctrl-C at the command stops its run in the daemon (exit 1); the daemon stays and serves the next run", async () => {
    const command = spawnMcpx(["exec", 'console.log("started"); await typed.hang({})', "--config", config.file], config);
    const daemon = await until("the daemon", () => recordOf(config));
    await until("the run to call hang", async () => {
      const id = await lastRunId();
      const run = id ? await storedRun(id) : undefined;
      return run?.state === "running" ? true : undefined;
    });
    command.child.kill("SIGINT");
    expect(await command.exited).toBe(1);
    expect(command.stderr()).toContain("mcpx: stopping run ");
    // How the sandbox words the end of a stopped run (kind "stopped") is its own; the run did end, with exit 1.
    expect(command.stderr()).toMatch(/^mcpx: exec\.ts(:\d+)?: /m);
    expect(recordOf(config)!.pid).toBe(daemon.pid);
    expect((await exec("return 1 + 1")).stdout).toBe("2\n");
  });

  it("the route refuses what is not a run: 400 with the field that is wrong", async () => {
    await exec("return 0");
    const record = recordOf(config)!;
    const post = (body: object) =>
      fetch(`http://127.0.0.1:${record.port}/v1/daemon/exec`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${record.credential}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    const good = { runId: crypto.randomUUID(), kind: "exec", code: "return 1", language: "ts", filename: "x.ts", args: [] };
    for (const [field, value] of [
      ["runId", "not-a-uuid"],
      ["kind", "call"],
      ["code", 7],
      ["language", "py"],
      ["args", [1]],
    ] as const) {
      const response = await post({ ...good, [field]: value });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(`"${field}"`);
    }
    const ok = await post(good);
    expect(await ok.json()).toMatchObject({ status: "ended", call: { server: "mcpx", tool: "exec", state: "done", result: { ok: true, value: 1 } } });
  });
});
