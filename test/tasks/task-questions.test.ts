/**
 * Questions inside tasks through the broker (issue 17 item 3). A task mcpx follows raises its
 * questions as broker questions attributed to the task's owner, while nobody polls: `mcpx
 * elicit` and REST answer them as any question, as does the owner in its era's way
 * (`tasks/update` for a 2026-07-28 host, inline on `tasks/result` for a 2025-11-25 host). The
 * first answer stands; a question that expires cancels the task.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import type { QuestionView } from "../../src/broker/view.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { textOf } from "../helpers/upstreams.js";
import { elicit, elicitListAll, Rest } from "../broker-e2e/support.js";
import { httpHost, type RecordingHost } from "../relay/support.js";
import { ended, modernHost, type ModernHost } from "./support.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let modern: ModernHost;
let rest: Rest;
/** A 2025-11-25 host that takes tasks but no questions: only the broker's other surfaces can answer its task's. */
let legacyHost: RecordingHost;

beforeAll(async () => {
  config = writeConfig({
    mcpServers: {
      modern: nodeServer("tasks-modern-server.mjs", ["--stdio"]),
      legacy: nodeServer("tasks-server.mjs", ["--stdio"]),
      // A 2025-11-25 upstream whose questions expire after a second.
      legacyBrief: { ...nodeServer("tasks-server.mjs", ["--stdio"]), elicitation: { ttlSeconds: 1 } },
      // Its questions expire after a second.
      brief: { ...nodeServer("tasks-modern-server.mjs", ["--stdio"]), elicitation: { ttlSeconds: 1 } },
    },
    elicitation: { ttlSeconds: 30 },
  });
  mcpx = await startMcpxHttp(config);
  modern = modernHost(mcpx.url);
  rest = Rest.fromLog(mcpx.stderr());
  legacyHost = await httpHost(mcpx.url, { name: "legacy-host", capabilities: { tasks: {} } });
});
afterAll(async () => {
  await legacyHost?.close();
  await mcpx?.close();
});

/** The pending question `message` from `server`, as REST lists it (waits for it to open). */
async function pendingQuestion(server: string, message: string): Promise<QuestionView> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const listed = (await rest.get("/v1/questions")).body as QuestionView[];
    const found = listed.find((view) => view.state === "pending" && view.server === server && view.message === message);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no pending question "${message}" from ${server}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startModern(server: string, name: string, args: object = {}): Promise<string> {
  const created = (await modern.request("tools/call", { name: `${server}__${name}`, arguments: args })).result!;
  expect(created.resultType).toBe("task");
  return String(created.taskId);
}

describe("a relayed 2026 task's question, while its owner does not poll", () => {
  it("is a broker question of the owner's, answered from the CLI: the task goes on with that answer", async () => {
    const taskId = await startModern("modern", "confirm_delete", { filename: "cli.txt" });
    const question = await pendingQuestion("modern", "Delete cli.txt?");
    // The task's tool; its owner is the identity (a 2026 request over HTTP has no session).
    expect(question).toMatchObject({ tool: "confirm_delete", hostSession: null });
    const answered = await elicit(config, "answer", question.id, '{"confirm":true}');
    expect(answered.code, answered.stderr).toBe(0);
    const task = await modern.until(taskId, ended);
    expect(textOf(task.result)).toBe("Deleted cli.txt");
  });

  it("answered over REST first, the owner's later tasks/update does not count: the first answer stands", async () => {
    const taskId = await startModern("modern", "confirm_delete", { filename: "rest.txt" });
    const question = await pendingQuestion("modern", "Delete rest.txt?");
    const asking = await modern.until(taskId, (task) => task.status === "input_required");
    expect(Object.keys(asking.inputRequests as object)).toEqual(["confirm"]);
    expect((await rest.answer(question.id, { action: "accept", content: { confirm: false } })).status).toBe(200);
    const ack = await modern.request("tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
    expect(ack.result).toEqual({ resultType: "complete" });
    const task = await modern.until(taskId, ended);
    expect(textOf(task.result)).toBe("Kept rest.txt");
  });

  it("answered by the owner with tasks/update, it is settled in the broker by the host", async () => {
    const taskId = await startModern("modern", "confirm_delete", { filename: "host.txt" });
    const question = await pendingQuestion("modern", "Delete host.txt?");
    await modern.request("tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
    expect(textOf((await modern.until(taskId, ended)).result)).toBe("Deleted host.txt");
    const settled = (await rest.get(`/v1/questions/${question.id}`)).body as QuestionView;
    expect(settled.state).toBe("answered");
    expect(settled.answer?.by).toMatch(/^host:/);
  });

  it("that nobody answers in time cancels the task", async () => {
    const taskId = await startModern("brief", "confirm_delete", { filename: "late.txt" });
    const task = await modern.until(taskId, ended);
    expect(task.status).toBe("cancelled");
    const expired = (await elicitListAll(config)).filter((view) => view.server === "brief");
    expect(expired.map((view) => view.state)).toEqual(["expired"]);
  });
});

describe("a 2025-11-25 upstream's task followed for a 2026-07-28 host", () => {
  it("its question, delivered on mcpx's own tasks/result, is answered from the CLI", async () => {
    const taskId = await startModern("legacy", "ask_name");
    const question = await pendingQuestion("legacy", "What is your name?");
    expect(question.tool).toBe("ask_name");
    expect((await elicit(config, "answer", question.id, '{"name":"Ada"}')).code).toBe(0);
    expect(textOf((await modern.until(taskId, ended)).result)).toBe("Hello, Ada!");
  });
});

describe("a 2026 task followed for a 2025-11-25 host", () => {
  it("its question is answered from the CLI while the host does not wait; tasks/result then gives the result", async () => {
    const created = await legacyHost.client.request(
      { method: "tools/call", params: { name: "modern__confirm_delete", arguments: { filename: "away.txt" }, task: {} } },
      CreateTaskResultSchema,
    );
    const question = await pendingQuestion("modern", "Delete away.txt?");
    // The task's owner is that host's session.
    expect(question.hostSession).toMatch(/\S/);
    expect((await legacyHost.client.experimental.tasks.getTask(created.task.taskId)).status).toBe("input_required");
    expect((await elicit(config, "answer", question.id, '{"confirm":true}')).code).toBe(0);
    const result = await legacyHost.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("Deleted away.txt");
    expect(legacyHost.requests("elicitation/create")).toEqual([]);
  });
});

describe("a 2025-11-25 task relayed between a 2025-11-25 host and a 2025-11-25 upstream", () => {
  async function startLegacy(server: string): Promise<string> {
    const created = await legacyHost.client.request(
      { method: "tools/call", params: { name: `${server}__ask_name`, arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    return created.task.taskId;
  }

  it("raises its question through the broker while the host does not wait on tasks/result; the host's tasks/result then gives the result", async () => {
    const taskId = await startLegacy("legacy");
    const question = await pendingQuestion("legacy", "What is your name?");
    // Attributed to the task's owner: that host's session, the task's tool.
    expect(question).toMatchObject({ tool: "ask_name" });
    expect(question.hostSession).toMatch(/\S/);
    expect((await legacyHost.client.experimental.tasks.getTask(taskId)).status).toBe("input_required");
    expect((await elicit(config, "answer", question.id, '{"name":"Grace"}')).code).toBe(0);
    const result = await legacyHost.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("Hello, Grace!");
    expect((await legacyHost.client.experimental.tasks.getTask(taskId)).status).toBe("completed");
    expect(legacyHost.requests("elicitation/create")).toEqual([]);
  });

  it("answered over REST, the answer stands and the task completes with it", async () => {
    const taskId = await startLegacy("legacy");
    const question = await pendingQuestion("legacy", "What is your name?");
    expect((await rest.answer(question.id, { action: "accept", content: { name: "Rest" } })).status).toBe(200);
    const result = await legacyHost.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("Hello, Rest!");
  });

  it("that nobody answers in time cancels the task", async () => {
    const taskId = await startLegacy("legacyBrief");
    const deadline = Date.now() + 10_000;
    let status = "";
    while (Date.now() < deadline && status !== "cancelled") {
      status = (await legacyHost.client.experimental.tasks.getTask(taskId)).status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe("cancelled");
    const expired = (await elicitListAll(config)).filter((view) => view.server === "legacyBrief");
    expect(expired.map((view) => view.state)).toEqual(["expired"]);
  });
});
