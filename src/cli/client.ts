/**
 * `mcpx client [-o FILE] [--json] [--cached]`: the typed client scripts are written against
 * (scripts/client-declarations.ts) for the config's servers, from the schema cache, for an
 * editor or `--typecheck` to use. Printed, or written to FILE (0644 by the umask: it holds tool
 * schemas and descriptions, no secret).
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { Config } from "../config/types.js";
import type { ServerView } from "../discovery/cache-read.js";
import { clientDeclarations } from "../scripts/client-declarations.js";
import { scriptServers } from "../scripts/script-servers.js";
import { discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError } from "./exit.js";
import { inert, inertJson } from "./inert.js";

export interface ClientOptions {
  output?: string;
  json?: boolean;
  cached?: boolean;
}

export async function client(config: Config, options: ClientOptions): Promise<number> {
  const view = await discoveryView(config, { cached: options.cached === true, schemas: true });
  const servers = view.servers;
  warnIfOld(servers);
  for (const server of servers.filter((candidate) => candidate.tools.length === 0))
    process.stderr.write(`mcpx: ${inert(server.server)} is not in the client: ${inert(leftOutBecause(server))}\n`);
  const tools = servers.flatMap((server) => server.tools);
  const variables = new Map(scriptServers(tools).map((server) => [server.server, server.variable]));
  const header = [
    `// mcpx client: ${servers.length} servers, ${tools.length} tools, from the schema cache (mcpx client -o FILE writes it again).`,
    ...servers.map((server) => `// ${server.server}: ${server.tools.length} tools, ${server.readAt ? `read ${server.readAt}` : leftOutBecause(server)}`),
  ];
  const declarations = clientDeclarations(tools, {
    serverDescriptions: Object.fromEntries(servers.filter((server) => server.description).map((server) => [server.server, server.description])),
  });
  // Upstream text is in the doc comments and literal types: each line made inert (an escape in a
  // comment is text, in a string literal the same character), so the file is safe to cat and compiles the same.
  const text = `${[...header, ...declarations.trimEnd().split("\n")].map(inert).join("\n")}\n`;

  if (options.output !== undefined) write(options.output, text);
  if (options.json) {
    const json = {
      typescript: text,
      ...(options.output !== undefined ? { file: options.output } : {}),
      servers: servers.map((server) => ({
        server: server.server,
        variable: variables.get(server.server) ?? null,
        tools: server.tools.length,
        readAt: server.readAt ?? null,
      })),
    };
    process.stdout.write(`${inertJson(JSON.stringify(json, null, 2))}\n`);
  } else if (options.output === undefined) process.stdout.write(text);
  if (options.output !== undefined)
    process.stderr.write(`mcpx: wrote the client of ${servers.length} servers (${tools.length} tools) to ${inert(options.output)}\n`);
  return 0;
}

/** Whole or not at all: a reader never sees half a file. */
function write(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o644 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write ${inert(file)}: ${(error as Error).message}`);
  }
}

function leftOutBecause(server: ServerView): string {
  if (server.state === "disabled") return "disabled";
  if (server.state === "never read") return "never read (mcpx refresh reads it)";
  if (server.state === "last read failed" && server.ageMs === undefined)
    return `its catalogue could not be read (${server.failure?.reason ?? "unknown reason"})`;
  return "it has no tools";
}
