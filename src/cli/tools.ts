/**
 * `mcpx tools [SERVER]`: the tools hosts see, by the names hosts call them (`server__tool`),
 * each with the first line of its description. From the schema cache (a server never read is
 * read once); with `--live`, starts the upstreams, lists, and stops them again.
 */
import type { Config } from "../config/types.js";
import type { LiveTool, NotUp } from "../host/live-tools.js";
import { exposedName } from "../host/naming.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { ago, discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";

/** A tool as `mcpx tools` lists it: as the running upstreams would (host/live-tools.ts), with the age of its data. */
export interface ToolEntry extends LiveTool {
  /** When its server's catalogue was read (ISO 8601); with `--live`, now. */
  readAt?: string | null;
}

const MAX_DESCRIPTION = 100;

export async function tools(
  config: Config,
  server: string | undefined,
  options: { json?: boolean; live?: boolean; cached?: boolean; daemon?: boolean },
): Promise<number> {
  const names = config.servers.map((entry) => entry.name);
  if (server !== undefined && !names.includes(server)) {
    throw new CliError(
      `no server named "${server}" in ${config.file}${didYouMean(nearest(server, names))} (configured: ${names.join(", ") || "none"})`,
      Exit.Usage,
    );
  }
  return options.live ? liveTools(config, server, options) : cachedTools(config, server, options);
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

async function liveTools(config: Config, server: string | undefined, options: { json?: boolean; daemon?: boolean }): Promise<number> {
  const json = options.json === true;
  const { tools: listed, notUp } = await liveFrom(config, server, options.daemon !== false);
  const readAt = new Date().toISOString();
  // The daemon serves every server of the config: one server's tools are picked here.
  const entries: ToolEntry[] = listed.filter((entry) => server === undefined || entry.server === server).map((entry) => ({ ...entry, readAt }));
  if (json) process.stdout.write(`${inertJson(JSON.stringify(entries, null, 2))}\n`);
  else process.stdout.write(table(entries));
  for (const entry of notUp.filter((down) => server === undefined || down.name === server)) {
    process.stderr.write(
      `mcpx: ${inert(entry.name)} is ${entry.state}${entry.reason ? `: ${inert(entry.reason)}` : ""}; its tools are not listed (mcpx servers shows why)\n`,
    );
  }
  return notUp.some((down) => server === undefined || down.name === server) ? Exit.Error : Exit.Ok;
}

/** What the running upstreams list: those of the mcpx serving this config (a daemon started if none), or of a gateway started here. */
async function liveFrom(config: Config, server: string | undefined, useDaemon: boolean): Promise<{ tools: LiveTool[]; notUp: NotUp[] }> {
  const { daemonWanted, liveTools: fromDaemon } = await import("./daemon-use.js");
  if (daemonWanted(!useDaemon)) return fromDaemon(config.file);
  const [{ Gateway }, { createLogger }, { settled }, { liveTools: listedBy }, { ensurePrivateDir, stateDir }] = await Promise.all([
    import("../host/gateway.js"),
    import("../util/log.js"),
    import("./settled.js"),
    import("../host/live-tools.js"),
    import("../broker/state-dir.js"),
  ]);
  const only = server === undefined ? config : { ...config, servers: config.servers.filter((entry) => entry.name === server) };
  const gateway = new Gateway(only, createLogger({}, "error"), { schemaCache: ensurePrivateDir(stateDir()) });
  try {
    await settled(gateway);
    return listedBy(gateway);
  } finally {
    await gateway.stop();
  }
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
