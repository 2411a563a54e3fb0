/**
 * When the call waiting on a question is gone, the question is closed as such (state
 * `closed`, answered `cancel` by "closed: …"), never left pending forever: the host cancels
 * its call, the host disconnects, the `mcpx serve` holding it is killed, or the process
 * behind `mcpx call` is killed (then `mcpx result` says so instead of waiting forever), even
 * while that process lingers as an unreaped zombie.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { RawStdioHost, startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio, httpHost } from "../relay/support.js";
import { brokerConfig, childPids, elicitListAll, killAll, pendingFrom, stateDirOf, waitForQuestion, type QuestionView } from "./support.js";

let config: TempConfig;
beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
});

/** Wait (bounded) until the question is closed, as `mcpx elicit list --all --json` (another process) shows it. */
async function closedInList(id: string, timeoutMs = 10_000): Promise<QuestionView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = (await elicitListAll(config)).find((question) => question.id === id);
    if (view?.state === "closed") return view;
    if (Date.now() > deadline) throw new Error(`question ${id} was never closed: ${JSON.stringify(view)}`);
  }
}

describe("a question whose waiting call is gone", () => {
  it("the host cancels its call: the question is closed", async () => {
    const host = new RawStdioHost(config);
    try {
      await host.initialize("2025-11-25", {});
      host.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Cancelled soon" } } });
      const question = await waitForQuestion(config, pendingFrom("ask", "Cancelled soon"));
      host.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "the user pressed stop" } });

      const closed = await closedInList(question.id);
      expect(closed.answer).toMatchObject({ action: "cancel" });
      expect(closed.answer?.by).toMatch(/^closed: /);
    } finally {
      await host.close();
    }
  });

  it("the call is answered while its question waits: the question is closed, as the call ended", async () => {
    const host = new RawStdioHost(config);
    try {
      await host.initialize("2025-11-25", {});
      const answered = await host.request(8, "tools/call", { name: "ask__ask_and_return", arguments: { message: "Left behind" } });
      expect(answered).toHaveProperty("result");
      const question = await waitForQuestion(config, (view) => view.server === "ask" && view.message === "Left behind");
      const closed = await closedInList(question.id);
      expect(closed).toMatchObject({ answer: { action: "cancel", by: "closed: the call ended" }, closedBecause: "the call ended" });
    } finally {
      await host.close();
    }
  });

  it("the HTTP host drops its connection: the question is closed", async () => {
    const mcpx: RunningMcpx & { url: URL } = await startMcpxHttp(config);
    try {
      const host = await httpHost(mcpx.url, { capabilities: {} });
      void host.client.callTool({ name: "ask__ask_form", arguments: { message: "Dropped soon" } }).catch(() => {});
      const question = await waitForQuestion(config, pendingFrom("ask", "Dropped soon"));
      await host.close();

      expect((await closedInList(question.id)).answer?.by).toMatch(/^closed: /);
    } finally {
      await mcpx.close();
    }
  });

  it("the `mcpx serve` waiting on it is killed (SIGKILL): the next `mcpx elicit list` shows it closed", async () => {
    const host = new RawStdioHost(config);
    try {
      await host.initialize("2025-11-25", {});
      host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask__ask_form", arguments: { message: "Killed soon" } } });
      const question = await waitForQuestion(config, pendingFrom("ask", "Killed soon"));
      const upstreams = childPids(host.running.child.pid!);
      const exited = new Promise((resolve) => host.running.child.once("exit", resolve));
      host.running.child.kill("SIGKILL");
      await exited;
      killAll(upstreams);

      const closed = await closedInList(question.id);
      expect(closed.answer).toMatchObject({ action: "cancel", by: "closed: the mcpx process that was waiting on it is gone" });
    } finally {
      await host.close();
    }
  });

  it("the process running an `mcpx call` is killed: the question is closed and `mcpx result` reports it", async () => {
    const started = await runMcpx(["call", "ask.ask_form", '{"message":"Runner killed"}', "--config", config.file], config);
    expect(started.code, started.stderr).toBe(75);
    const { callId, questions } = JSON.parse(started.stdout) as { callId: string; questions: Array<{ id: string }> };

    const store = SqliteStore.open(stateDirOf(config));
    const runner = (await store.calls.get(callId))?.runnerPid;
    await store.close();
    expect(runner).toBeTypeOf("number");
    const upstreams = childPids(runner!);
    process.kill(runner!, "SIGKILL");
    killAll(upstreams);

    const closed = await closedInList(questions[0]!.id);
    expect(closed.answer?.by).toBe("closed: the mcpx process that was waiting on it is gone");
    const collected = await runMcpx(["result", callId], config);
    expect(collected.code).toBe(1);
    expect(collected.stderr).toMatch(/stopped before finishing/);
  });
});

/**
 * A killed process that stays a zombie: its parent (`sleep`, after `exec`) never reaps it, as
 * an init that does not reap would not. Resolves with its pid once it is a zombie.
 */
async function zombie(): Promise<{ pid: number; release(): void }> {
  const parent = spawn("/bin/sh", ["-c", "sleep 60 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
  const line = await new Promise<string>((resolve) => createInterface({ input: parent.stdout }).once("line", resolve));
  const pid = Number(line);
  const deadline = Date.now() + 5_000;
  // Kill it only once the shell has become `sleep`: a shell still running would reap it.
  while (readFileSync(`/proc/${parent.pid}/cmdline`, "utf8").split("\0")[0] !== "sleep") {
    if (Date.now() > deadline) throw new Error("the shell never became sleep");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  process.kill(pid, "SIGKILL");
  const state = (): string => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2);
  };
  while (state() !== "Z") {
    if (Date.now() > deadline) throw new Error(`process ${pid} never became a zombie`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { pid, release: () => parent.kill("SIGKILL") };
}

describe("a question whose waiting process is a zombie", () => {
  it.skipIf(process.platform !== "linux")("is closed by the next sweep, like one whose process is gone", async () => {
    const dead = await zombie();
    try {
      const store = SqliteStore.open(stateDirOf(config));
      const now = Date.now();
      await store.questions.insert({
        id: "zombie-owned",
        server: "ask",
        kind: "elicitation",
        method: "elicitation/create",
        mode: "form",
        message: "Owned by a zombie",
        params: { message: "Owned by a zombie", requestedSchema: { type: "object", properties: {} } },
        audience: "agent",
        audienceReason: "nothing in it needs a person",
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 60_000).toISOString(),
        state: "pending",
        ownerPid: dead.pid,
        ownerInstance: "zombie-instance",
      });
      await store.close();

      expect((await closedInList("zombie-owned")).answer?.by).toBe("closed: the mcpx process that was waiting on it is gone");
    } finally {
      dead.release();
    }
  });
});

afterAll(async () => {
  // Every question of this file ended one way or another: none is left pending.
  const store = SqliteStore.open(stateDirOf(config));
  try {
    expect(await store.questions.list(false)).toEqual([]);
  } finally {
    await store.close();
  }
});
