/**
 * `mcpx ls`: every configured server with its tool count, state and a one-line description,
 * from the schema cache: no server is started (but one never read, once).
 */
import type { Config } from "../config/types.js";
import type { ServerView } from "../discovery/cache-read.js";
import { ageWords, discoveryView } from "./discovery-view.js";
import { Exit } from "./exit.js";
import { writeOut } from "./write-out.js";
import { inert, inertJson } from "./inert.js";

export interface LsEntry {
  server: string;
  tools: number;
  state: ServerView["state"] | "left out";
  /** When its catalogue was last read successfully (ISO 8601); null: never. */
  readAt: string | null;
  description: string;
  /** Why the last read failed, or why the server is left out. */
  reason?: string;
}

const MAX_DESCRIPTION = 80;

export async function ls(config: Config, options: { json?: boolean; cached?: boolean }): Promise<number> {
  const view = await discoveryView(config, { cached: options.cached === true });
  const entries: LsEntry[] = [
    ...view.servers.map((server) => ({
      server: server.server,
      tools: server.toolCount,
      state: server.state,
      readAt: server.readAt ?? null,
      description: server.description,
      ...(server.failure ? { reason: server.failure.reason } : {}),
    })),
    ...(config.leftOut ?? []).map((left) => ({
      server: left.name,
      tools: 0,
      state: left.disabled ? ("disabled" as const) : ("left out" as const),
      readAt: null,
      description: "",
      reason: left.why,
    })),
  ];
  if (options.json) {
    writeOut(`${inertJson(JSON.stringify(entries, null, 2))}\n`);
    return Exit.Ok;
  }
  const states = new Map(view.servers.map((server) => [server.server, ageWords(server)]));
  const rows = [
    ["SERVER", "TOOLS", "STATE", "DESCRIPTION"],
    ...entries.map((entry) => [entry.server, String(entry.tools), states.get(entry.server) ?? entry.state, cut(entry.description)]),
  ].map((row) => row.map(inert));
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => (column === 3 ? cell : column === 1 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
  writeOut(`${lines.join("\n")}\n`);
  return Exit.Ok;
}

function cut(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
