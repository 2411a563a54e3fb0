/**
 * Issue 17's "Done when", as one test: a 2025-11-25 host and a 2026-07-28 host each start a
 * long task on a 2025-11-25 upstream (SDK 1.x) and on a 2026-07-28 upstream that offers the
 * tasks extension, through one `mcpx serve --http`; each task raises a question midway; both
 * hosts go away and come back (the 2025 host in a new session), answer the questions in their
 * own era's way (inline `elicitation/create` on `tasks/result`; `inputRequests` answered with
 * `tasks/update`), and collect the results; `mcpx tasks` shows all four.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import type { TaskRecord } from "../../src/broker/task-store.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient, validateDefinition } from "../helpers/spec-validator.js";
import { runMcpx, textOf } from "../helpers/upstreams.js";
import { type Frame, httpHost } from "../relay/support.js";
import { ended, modernHost, RELATED } from "./support.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  config = writeConfig({
    mcpServers: {
      legacy: nodeServer("tasks-server.mjs", ["--stdio"]),
      // confirm_delete works 400 ms before it asks.
      modern: nodeServer("tasks-modern-server.mjs", ["--stdio", "--pause-ms", "400"]),
    },
    elicitation: { ttlSeconds: 60 },
  });
  mcpx = await startMcpxHttp(config);
});
afterAll(async () => {
  await mcpx?.close();
});

/** A 2025-11-25 host that takes tasks and answers forms, recording what it sent (to validate the results it got). */
async function legacyHost(name: string) {
  const host = await httpHost(mcpx.url, {
    name,
    capabilities: { tasks: {}, elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada", confirm: true } })),
  });
  const sent = new Map<unknown, string>();
  const send = host.transport.send.bind(host.transport);
  host.transport.send = (message, options) => {
    if ("method" in message && "id" in message) sent.set(message.id, message.method);
    return send(message, options);
  };
  const expectFramesValid = (): void => {
    for (const frame of host.frames) {
      const method = "result" in frame ? sent.get(frame.id) : undefined;
      if (method === "tools/call" && typeof frame.result === "object" && frame.result !== null && "task" in frame.result) {
        expect(validateDefinition("2025-11-25", "CreateTaskResult", frame.result).errors).toEqual([]);
      } else expectValidToClient("2025-11-25", frame, method);
    }
  };
  return { ...host, expectFramesValid };
}

describe("issue 17, done when", () => {
  it("two hosts of two eras, four long tasks on two upstreams of two eras, a question each midway, away and back, four results; mcpx tasks shows all four", async () => {
    const modern = modernHost(mcpx.url);

    // The 2025-11-25 host starts its two tasks and goes away (its session ends).
    const leaving = await legacyHost("host-2025");
    const start2025 = async (name: string, args: object): Promise<string> =>
      (await leaving.client.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: 120_000 } } }, CreateTaskResultSchema)).task.taskId;
    const legacyOf2025 = await start2025("legacy__ask_name", { ms: 400 });
    const modernOf2025 = await start2025("modern__confirm_delete", { filename: "2025.txt" });
    leaving.expectFramesValid();
    await leaving.transport.terminateSession();
    await leaving.close();

    // The 2026-07-28 host starts its two (each request stands alone: between them it is away).
    const start2026 = async (name: string, args: object): Promise<string> => {
      const created = (await modern.request("tools/call", { name, arguments: args })).result!;
      expect(created).toMatchObject({ resultType: "task", status: "working" });
      return String(created.taskId);
    };
    const legacyOf2026 = await start2026("legacy__ask_name", { ms: 400 });
    const modernOf2026 = await start2026("modern__confirm_delete", { filename: "2026.txt" });

    // Midway, all four wait for an answer.
    for (const id of [legacyOf2026, modernOf2026]) expect((await modern.until(id, (task) => task.status === "input_required")).status).toBe("input_required");

    // The 2026 host comes back: inputRequests answered with tasks/update.
    for (const [id, answer] of [
      [legacyOf2026, { name: "Grace" }],
      [modernOf2026, { confirm: true }],
    ] as const) {
      const asking = await modern.until(id, (task) => task.status === "input_required");
      const [key] = Object.keys(asking.inputRequests as object);
      expect((await modern.request("tasks/update", { taskId: id, inputResponses: { [key!]: { action: "accept", content: answer } } })).result).toEqual({
        resultType: "complete",
      });
    }
    expect(textOf((await modern.until(legacyOf2026, ended)).result)).toBe("Hello, Grace!");
    expect(textOf((await modern.until(modernOf2026, ended)).result)).toBe("Deleted 2026.txt");

    // The 2025 host comes back in a new session: its tasks by id, each question inline on tasks/result.
    const back = await legacyHost("host-2025-again");
    try {
      const waiting = async (id: string): Promise<string> => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const status = (await back.client.experimental.tasks.getTask(id)).status;
          if (status !== "working" || Date.now() > deadline) return status;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      expect(await waiting(legacyOf2025)).toBe("input_required");
      expect(await waiting(modernOf2025)).toBe("input_required");
      const onLegacy = await back.client.experimental.tasks.getTaskResult(legacyOf2025, CallToolResultSchema);
      expect(textOf(onLegacy)).toBe("Hello, Ada!");
      expect(onLegacy._meta?.[RELATED]).toEqual({ taskId: legacyOf2025 });
      const onModern = await back.client.experimental.tasks.getTaskResult(modernOf2025, CallToolResultSchema);
      expect(textOf(onModern)).toBe("Deleted 2025.txt");
      const asked = back.requests("elicitation/create").map((frame) => (((frame.params as Frame)._meta as Frame)[RELATED] as Frame).taskId);
      expect(asked.sort()).toEqual([legacyOf2025, modernOf2025].sort());
      back.expectFramesValid();
    } finally {
      await back.close();
    }

    // mcpx tasks shows all four, completed.
    const listed = await runMcpx(["tasks", "list", "--all", "--json"], config);
    expect(listed.code, listed.stderr).toBe(0);
    const byId = new Map((JSON.parse(listed.stdout) as TaskRecord[]).map((task) => [task.id, task]));
    expect([legacyOf2025, modernOf2025, legacyOf2026, modernOf2026].map((id) => [byId.get(id)?.server, byId.get(id)?.tool, byId.get(id)?.status])).toEqual([
      ["legacy", "ask_name", "completed"],
      ["modern", "confirm_delete", "completed"],
      ["legacy", "ask_name", "completed"],
      ["modern", "confirm_delete", "completed"],
    ]);
    const table = (await runMcpx(["tasks", "list", "--all"], config)).stdout;
    for (const id of byId.keys()) expect(table).toContain(id);
  });
});
