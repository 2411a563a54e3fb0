/**
 * `mcpx tasks list|show|cancel`: the tasks mcpx relayed for hosts, from the store in the state
 * directory (broker/task-store.ts), the operator's own (identity "local") as `elicit list` shows
 * its questions. No config file needed. A task whose mcpx process is gone is marked failed first
 * (the broker's sweep), so nothing shows "working" that nobody can follow any more. `cancel`
 * writes the cancel to the store; the process that follows the task sees it there and cancels
 * it upstream.
 */
import { Broker } from "../broker/broker.js";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { openCommandStore } from "./open-store.js";
import type { Config } from "../config/types.js";
import type { BrokerStore } from "../broker/store-api.js";
import type { TaskRecord } from "../broker/task-store.js";
import { createLogger } from "../util/log.js";
import { inert, inertJson } from "./inert.js";
import { CliError } from "./exit.js";

export async function tasksList(options: { json?: boolean; all?: boolean }, config?: Pick<Config, "store">): Promise<void> {
  const store = await openCommandStore(config);
  try {
    await new Broker(store, createLogger({}, "warn")).sweep();
    const tasks = (await store.tasks.all()).filter((task) => task.identity === LOCAL_IDENTITY && (options.all === true || !ended(task)));
    process.stdout.write(options.json ? `${inertJson(JSON.stringify(tasks, null, 2))}\n` : table(tasks, options.all === true));
  } finally {
    await store.close();
  }
}

export async function tasksShow(id: string, options: { json?: boolean }, config?: Pick<Config, "store">): Promise<void> {
  await withOwnTask(id, config, async (task) => {
    if (options.json) {
      process.stdout.write(`${inertJson(JSON.stringify(task, null, 2))}\n`);
      return;
    }
    const fields: Array<[string, unknown]> = [
      ["id", task.id],
      ["server", task.server],
      ["tool", task.tool],
      ["status", task.status],
      ["message", task.statusMessage],
      ["host session", task.hostSession],
      ["created", task.createdAt],
      ["last heard", task.lastPolledAt],
      ["expires", task.expiresAt],
      ["upstream's id", task.upstreamTaskId],
      ["followed by", `mcpx process ${task.followerPid}`],
    ];
    const width = Math.max(...fields.map(([name]) => name.length));
    for (const [name, value] of fields) if (value !== undefined) process.stdout.write(`${name.padEnd(width)}  ${inert(value)}\n`);
  });
}

export async function tasksCancel(id: string, config?: Pick<Config, "store">): Promise<void> {
  await withOwnTask(id, config, async (task, store) => {
    if (ended(task)) throw new CliError(`task ${inert(id)} already ended (${task.status}${task.statusMessage ? `: ${inert(task.statusMessage)}` : ""})`);
    const why = `cancelled with \`mcpx tasks cancel\`; the mcpx process that follows it (process ${task.followerPid}) cancels it upstream`;
    if (!(await store.tasks.requestCancel(task.id, why))) throw new CliError(`task ${inert(id)} ended meanwhile`);
    process.stdout.write(`cancelled task ${inert(id)}: mcpx process ${task.followerPid}, which follows it, cancels it upstream\n`);
  });
}

/** The operator's task `id` (after the sweep); another identity's is unknown, as one that never existed. */
async function withOwnTask(id: string, config: Pick<Config, "store"> | undefined, use: (task: TaskRecord, store: BrokerStore) => Promise<void>): Promise<void> {
  const store = await openCommandStore(config);
  try {
    await new Broker(store, createLogger({}, "warn")).sweep();
    const task = await store.tasks.get(id);
    if (!task || task.identity !== LOCAL_IDENTITY) throw new CliError(`no task ${inert(id)} (\`mcpx tasks list --all\` lists them)`);
    await use(task, store);
  } finally {
    await store.close();
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
