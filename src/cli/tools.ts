/**
 * `mcpx tools [SERVER]`: the tools hosts see, by the names hosts call them (`server__tool`),
 * each with the first line of its description. Starts the upstreams, lists, stops them again.
 */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { createLogger } from "../util/log.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";
import { settled } from "./settled.js";

export interface ToolEntry {
  /** The name hosts call it by. */
  name: string;
  server: string;
  /** The name the server itself gives it. */
  tool: string;
  description: string | null;
}

const MAX_DESCRIPTION = 100;

export async function tools(config: Config, server: string | undefined, json: boolean): Promise<number> {
  const names = config.servers.map((entry) => entry.name);
  if (server !== undefined && !names.includes(server)) {
    throw new CliError(
      `no server named "${server}" in ${config.file}${didYouMean(nearest(server, names))} (configured: ${names.join(", ") || "none"})`,
      Exit.Usage,
    );
  }
  const only = server === undefined ? config : { ...config, servers: config.servers.filter((entry) => entry.name === server) };
  const gateway = new Gateway(only, createLogger({}, "error"));
  let entries: ToolEntry[];
  let notUp: Array<{ name: string; state: string; reason?: string }>;
  try {
    await settled(gateway);
    entries = gateway.catalogue.tools.map((item) => {
      const name = String(item.name);
      const owned = gateway.catalogue.tool(name);
      return {
        name,
        server: owned?.server ?? "",
        tool: owned?.original ?? name,
        description: typeof item.description === "string" ? item.description : null,
      };
    });
    notUp = gateway.upstreams
      .filter((upstream) => upstream.state !== "ready" && upstream.state !== "disabled")
      .map((upstream) => ({ name: upstream.name, state: upstream.state, ...(upstream.reason ? { reason: upstream.reason } : {}) }));
  } finally {
    await gateway.stop();
  }
  if (json) process.stdout.write(`${inertJson(JSON.stringify(entries, null, 2))}\n`);
  else process.stdout.write(table(entries));
  for (const entry of notUp) {
    process.stderr.write(
      `mcpx: ${inert(entry.name)} is ${entry.state}${entry.reason ? `: ${inert(entry.reason)}` : ""}; its tools are not listed (mcpx servers shows why)\n`,
    );
  }
  return notUp.length === 0 ? Exit.Ok : Exit.Error;
}

function table(entries: ToolEntry[]): string {
  if (entries.length === 0) return "no tools\n";
  const width = Math.max(...entries.map((entry) => inert(entry.name).length));
  return `${entries.map((entry) => `${inert(entry.name).padEnd(width)}  ${summary(entry.description)}`.trimEnd()).join("\n")}\n`;
}

/** The first line of a description, inert and cut short. */
function summary(description: string | null): string {
  const first = (description ?? "").trim().split(/\r?\n/)[0] ?? "";
  const text = inert(first);
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
