/**
 * `mcpx tasks list`: the tasks mcpx relayed for hosts, from the store in the state directory
 * (broker/task-store.ts), the operator's own (identity "local") as `elicit list` shows its
 * questions. No config file needed. A task whose mcpx process is gone is marked failed first (the
 * broker's sweep), so nothing shows "working" that nobody can follow any more.
 */
import { Broker } from "../broker/broker.js";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { openCommandStore } from "./open-store.js";
import type { TaskRecord } from "../broker/task-store.js";
import { createLogger } from "../util/log.js";
import { inert, inertJson } from "./inert.js";

export function tasksList(options: { json?: boolean; all?: boolean }): void {
  const store = openCommandStore();
  try {
    new Broker(store, createLogger({}, "warn")).sweep();
    const tasks = store.tasks.all().filter((task) => task.identity === LOCAL_IDENTITY && (options.all === true || !ended(task)));
    process.stdout.write(options.json ? `${inertJson(JSON.stringify(tasks, null, 2))}\n` : table(tasks, options.all === true));
  } finally {
    store.close();
  }
}

function ended(task: TaskRecord): boolean {
  return ["completed", "failed", "cancelled"].includes(task.status);
}

function table(tasks: TaskRecord[], all: boolean): string {
  if (tasks.length === 0) return all ? "no tasks\n" : "no tasks running (--all shows ended ones)\n";
  const rows = tasks.map((task) => [task.id, task.tool, task.status, task.createdAt, task.lastPolledAt, task.statusMessage ?? ""].map(inert));
  const header = ["ID", "TOOL", "STATUS", "CREATED", "LAST HEARD", "MESSAGE"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string =>
    `${cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd()}\n`;
  return [header, ...rows].map(line).join("");
}
