/**
 * A 2026-07-28 host for the tasks tests: one raw request per call, its `_meta` envelope declaring
 * (or not) the tasks extension, every frame mcpx answers validated against the 2026-07-28 schema
 * (the extension's own shapes, which the core schema does not define, as results, with the tool
 * result they inline checked as a CallToolResult).
 */
import { expect } from "vitest";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient, validateDefinition } from "../helpers/spec-validator.js";

export const V = "2026-07-28";
export const TASKS = "io.modelcontextprotocol/tasks";
export const RELATED = "io.modelcontextprotocol/related-task";

export type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

let nextId = 1;

export interface ModernHost {
  request(method: string, params: Record<string, unknown>, tasks?: boolean): Promise<Reply>;
  /** tasks/get until `done` says so (10 s at most). */
  until(taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** A 2026-07-28 host of mcpx at `url`; `headers` go on every request (an access token). */
export function modernHost(url: URL, headers: Record<string, string> = {}): ModernHost {
  const request = async (method: string, params: Record<string, unknown>, tasks = true): Promise<Reply> => {
    const capabilities = { elicitation: {}, ...(tasks ? { extensions: { [TASKS]: {} } } : {}) };
    const envelope = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": capabilities };
    const name = method === "tools/call" ? String(params.name) : typeof params.taskId === "string" ? params.taskId : undefined;
    const reply = await post(
      url,
      { jsonrpc: "2.0", id: nextId++, method, params: { _meta: envelope, ...params } },
      { ...headers, "mcp-protocol-version": V, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
    );
    for (const frame of reply.messages) expectValidModern(method, frame as Reply);
    return reply.messages[0] as Reply;
  };
  const until = async (taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = (await request("tasks/get", { taskId })).result!;
      if (done(task) || Date.now() > deadline) return task;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { request, until };
}

export function expectValidModern(method: string, frame: Reply): void {
  const result = frame.result;
  if (!result || !(result.resultType === "task" || method.startsWith("tasks/"))) {
    expectValidToClient(V, frame, method);
    return;
  }
  expect(validateDefinition(V, "Result", result).errors).toEqual([]);
  if (result.result !== undefined) expect(validateDefinition(V, "CallToolResult", result.result).errors).toEqual([]);
}

export const ended = (task: Record<string, unknown>): boolean => ["completed", "failed", "cancelled"].includes(String(task.status));

/** An SDK host that also remembers the method of each request it sends, by id (to validate the results against the right schema). */
export type SentMethods<H> = H & { sent: Map<unknown, string> };

export function recordingSentMethods<H extends { transport: { send: (message: never, options?: never) => Promise<void> } }>(host: H): SentMethods<H> {
  const sent = new Map<unknown, string>();
  const transport = host.transport as unknown as { send: (message: Record<string, unknown>, options?: unknown) => Promise<void> };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ("method" in message && "id" in message) sent.set(message.id, String(message.method));
    return send(message, options);
  };
  return { ...host, sent };
}
