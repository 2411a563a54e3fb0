/**
 * `mcpx tools [SERVER]`: the tools hosts see, by the names hosts call them (`server__tool`),
 * each with the first line of its description. From the schema cache (a server never read is
 * read once); with `--live`, starts the upstreams, lists, and stops them again.
 */
import type { Config } from "../config/types.js";
import { exposedName } from "../host/naming.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { ago, discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";

export interface ToolEntry {
  /** The name hosts call it by. */
  name: string;
  server: string;
  /** The name the server itself gives it. */
  tool: string;
  description: string | null;
  /** When its server's catalogue was read (ISO 8601); with `--live`, now. */
  readAt?: string | null;
}

const MAX_DESCRIPTION = 100;

export async function tools(config: Config, server: string | undefined, options: { json?: boolean; live?: boolean; cached?: boolean }): Promise<number> {
  const names = config.servers.map((entry) => entry.name);
  if (server !== undefined && !names.includes(server)) {
    throw new CliError(
      `no server named "${server}" in ${config.file}${didYouMean(nearest(server, names))} (configured: ${names.join(", ") || "none"})`,
      Exit.Usage,
    );
  }
  return options.live ? liveTools(config, server, options.json === true) : cachedTools(config, server, options);
}

async function cachedTools(config: Config, server: string | undefined, options: { json?: boolean; cached?: boolean }): Promise<number> {
  const view = await discoveryView(config, { cached: options.cached === true, ...(server !== undefined ? { only: [server] } : {}) });
  const servers = view.servers.filter((entry) => server === undefined || entry.server === server);
  const entries: ToolEntry[] = servers.flatMap((entry) =>
    entry.tools.map((tool) => ({
      name: exposedName(entry.server, tool.tool, entry.config.passthrough),
      server: entry.server,
      tool: tool.tool,
      description: tool.description === "" ? null : tool.description,
      readAt: entry.readAt ?? null,
    })),
  );
  if (options.json) process.stdout.write(`${inertJson(JSON.stringify(entries, null, 2))}\n`);
  else process.stdout.write(table(entries));
  warnIfOld(servers);
  const failed = servers.filter((entry) => entry.state === "last read failed");
  for (const entry of failed) {
    const why = inert(entry.failure?.reason ?? "");
    process.stderr.write(
      entry.ageMs === undefined
        ? `mcpx: ${inert(entry.server)} is down: ${why}; its tools are not listed (mcpx servers shows why, mcpx refresh ${inert(entry.server)} tries again)\n`
        : `mcpx: ${inert(entry.server)}'s last read failed: ${why}; its tools as read ${ago(entry.ageMs)} are listed\n`,
    );
  }
  return failed.length === 0 ? Exit.Ok : Exit.Error;
}

async function liveTools(config: Config, server: string | undefined, json: boolean): Promise<number> {
  const [{ Gateway }, { createLogger }, { settled }] = await Promise.all([import("../host/gateway.js"), import("../util/log.js"), import("./settled.js")]);
  const only = server === undefined ? config : { ...config, servers: config.servers.filter((entry) => entry.name === server) };
  const { ensurePrivateDir, stateDir } = await import("../broker/state-dir.js");
  const gateway = new Gateway(only, createLogger({}, "error"), { schemaCache: ensurePrivateDir(stateDir()) });
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
        readAt: new Date().toISOString(),
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
