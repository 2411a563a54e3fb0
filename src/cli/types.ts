/**
 * `mcpx types SERVER[.TOOL][,…]` (or `SERVER__TOOL`): TypeScript declarations of tools'
 * arguments and results (discovery/typescript.ts), from the schema cache.
 */
import type { Config } from "../config/types.js";
import type { DiscoveryTool, DiscoveryView, ServerView } from "../discovery/cache-read.js";
import { declarations } from "../discovery/typescript.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { ageWords, discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";
import { writeOut } from "./write-out.js";

interface Target {
  server: string;
  /** The server's own tool name; absent: every tool of the server. */
  tool?: string;
}

export async function types(config: Config, spec: string, options: { json?: boolean; cached?: boolean }): Promise<number> {
  const names = config.servers.map((server) => server.name);
  const targets = spec
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => parseTarget(part, names));
  if (targets.length === 0) throw new CliError("name a server or a tool: mcpx types SERVER[.TOOL]", Exit.Usage);
  const view = await discoveryView(config, { cached: options.cached === true, only: targets.map((target) => target.server), schemas: true });
  const tools = unique(targets.flatMap((target) => toolsOf(view, target)));
  const servers = view.servers.filter((server) => targets.some((target) => target.server === server.server));
  warnIfOld(servers);
  const typescript = declarations(tools, {
    serverDescriptions: Object.fromEntries(servers.filter((server) => server.description).map((server) => [server.server, server.description])),
    howToCall: `Call a tool from the shell: mcpx call SERVER.TOOL '{"arg": 1}' (the args object as JSON), or mcpx call SERVER.TOOL arg=1.`,
  });
  if (options.json) {
    const json = {
      typescript,
      tools: tools.map((tool) => tool.name),
      servers: servers.map((server) => ({ server: server.server, readAt: server.readAt ?? null })),
    };
    writeOut(`${inertJson(JSON.stringify(json, null, 2))}\n`);
    return Exit.Ok;
  }
  // Upstream descriptions are in the doc comments: each line made inert for the terminal.
  const header = servers.map((server) => `// ${server.server}: ${server.tools.length} tools, ${ageWords(server)}`).join("\n");
  writeOut(`${[header, ...typescript.split("\n")].map(inert).join("\n").trimEnd()}\n`);
  return Exit.Ok;
}

/** `SERVER`, `SERVER.TOOL` or `SERVER__TOOL`; the longest configured server name that fits wins. */
function parseTarget(text: string, servers: readonly string[]): Target {
  const fits = servers
    .filter((server) => text === server || text.startsWith(`${server}.`) || text.startsWith(`${server}__`))
    .sort((a, b) => b.length - a.length);
  const server = fits[0];
  if (server === undefined) {
    const wanted = text.split(/\.|__/)[0] ?? text;
    throw new CliError(
      inert(`no server named "${wanted}" in the config${didYouMean(nearest(wanted, servers))} (configured: ${servers.join(", ") || "none"})`),
      Exit.Usage,
    );
  }
  if (text === server) return { server };
  return { server, tool: text.slice(server.length + (text[server.length] === "." ? 1 : 2)) };
}

function toolsOf(view: DiscoveryView, target: Target): DiscoveryTool[] {
  const server = view.servers.find((candidate) => candidate.server === target.server) as ServerView;
  if (target.tool === undefined) return server.tools;
  const tool = server.tools.find((candidate) => candidate.tool === target.tool);
  if (tool) return [tool];
  const why =
    server.tools.length === 0
      ? ` (${server.server} has no tools to show: ${ageWords(server)})`
      : didYouMean(
          nearest(
            target.tool,
            server.tools.map((candidate) => candidate.tool),
          ),
        );
  throw new CliError(inert(`${server.server} has no tool "${target.tool}"${why}`), Exit.Usage);
}

function unique(tools: DiscoveryTool[]): DiscoveryTool[] {
  return [...new Map(tools.map((tool) => [tool.name, tool])).values()];
}
