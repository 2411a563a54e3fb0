/**
 * The `mcpx` command line as commander reads it: every command, its options, help and errors.
 * main.ts comes here for every line but the hot ones it reads itself (hot-args.ts).
 *
 * Each command's modules are imported when that command runs, never up front. A new command
 * follows suit: its action imports its module.
 */
import { createRequire } from "node:module";
import { IMPLEMENTATION } from "../version.js";
import { CliError, Exit } from "./exit.js";
import type { Config, Expose } from "../config/types.js";
import { UI_DEFAULT_PORT } from "./ports.js";
import { registerDaemon } from "./daemon-commands.js";
import { registerRun } from "./run-commands.js";
import { registerAuth } from "./auth-commands.js";

// Required, not imported: as CommonJS through the ESM loader, commander would be scanned for its exports first.
const { Command, CommanderError, Option } = createRequire(import.meta.url)("commander") as typeof import("commander");

/** The config for a command (loaded, checked, its warnings said once). */
async function configFor(explicit: string | undefined): Promise<Config> {
  return (await import("./context.js")).configFor(explicit);
}

/** The config for a discovery command, which never asks a question: the policy rules are not checked. */
async function discoveryConfig(explicit: string | undefined): Promise<Config> {
  return (await import("./context.js")).configFor(explicit, { rules: false });
}

const STORE_CONFIG_HELP = "the config whose store (store.url) to read (default: $MCPX_CONFIG, else ./mcpx.json when there is one)";

/** The config of a command on the store alone, when there is one (its store.url and cluster). */
async function commandConfig(explicit: string | undefined): Promise<Config | undefined> {
  return (await import("./context.js")).storeConfigFor(explicit);
}

const program = new Command("mcpx")
  .description("An MCP gateway: many MCP servers behind one endpoint")
  .version(IMPLEMENTATION.version)
  .exitOverride()
  .showHelpAfterError();

program
  .command("serve")
  .description("serve MCP on stdin/stdout for one host, or over HTTP with --http")
  .option("-c, --config <file>", "config file (default: $MCPX_CONFIG, else ./mcpx.json)")
  .option("--http", "serve Streamable HTTP at /mcp instead of stdio")
  .option("--host <host>", "address to bind with --http (default from config: 127.0.0.1)")
  .option("--port <port>", "port to bind with --http (default from config: 7777)", parsePort)
  .addOption(
    new Option("--expose <what>", "what hosts' tools/list holds: every tool, or the discovery tools (default from config: all)").choices(["all", "discovery"]),
  )
  .option("--profile <name>", "serve only this profile of the config's profiles (with --http: as /mcp)")
  .action(async (options: { config?: string; http?: boolean; host?: string; port?: number; expose?: Expose; profile?: string }) => {
    const { serve } = await import("./serve.js");
    await serve(await configFor(options.config), options);
  });

program
  .command("ls")
  .description("each server with its tool count, state and a one-line description, from the schema cache (no server started)")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .option("--cached", "never start a server, not even one never read")
  .action(async (options: { config?: string; json?: boolean; cached?: boolean }) => {
    const { ls } = await import("./ls.js");
    process.exitCode = await ls(await discoveryConfig(options.config), options);
  });

program
  .command("search")
  .description("the tools that best match WORDS, best first, from the schema cache (no server started)")
  .argument("<words...>", "what the tool should do, or (part of) its name")
  .option("-n, --limit <n>", "how many tools (default: 10)", parseWhole("--limit"))
  .option("-c, --config <file>", "config file")
  .option("--json", 'print JSON: [{"name": "SERVER__TOOL", "server", "tool", "description", "score", "readAt"}]')
  .option("--cached", "never start a server, not even one never read")
  .action(async (words: string[], options: { config?: string; json?: boolean; cached?: boolean; limit?: number }) => {
    const { searchCommand } = await import("./search.js");
    process.exitCode = await searchCommand(await discoveryConfig(options.config), words, options);
  });

program
  .command("types")
  .description("TypeScript declarations of tools' arguments and results: SERVER, SERVER.TOOL or SERVER__TOOL, several comma-separated")
  .argument("<tools>", "SERVER[.TOOL][,…]")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON: {typescript, tools, servers: [{server, readAt}]}")
  .option("--cached", "never start a server, not even one never read")
  .action(async (spec: string, options: { config?: string; json?: boolean; cached?: boolean }) => {
    const { types } = await import("./types.js");
    process.exitCode = await types(await discoveryConfig(options.config), spec, options);
  });

program
  .command("client")
  .description("the typed client scripts are written against: TypeScript declarations of every server's tools as a script's globals, from the schema cache")
  .option("-o, --output <file>", "write it to FILE (for an editor, or --typecheck) instead of printing it")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON: {typescript, file?, servers: [{server, variable, tools, readAt}]}")
  .option("--cached", "never start a server, not even one never read")
  .action(async (options: { config?: string; output?: string; json?: boolean; cached?: boolean }) => {
    const { client } = await import("./client.js");
    process.exitCode = await client(await discoveryConfig(options.config), options);
  });

program
  .command("catalog")
  .description("every server, then as many one-line tool signatures as fit a token budget, favouring --bias")
  .requiredOption("--budget <tokens>", "how many tokens the answer may take (o200k_base)", parseWhole("--budget"))
  .option("--bias <words>", "favour the tools that match these words")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .option("--cached", "never start a server, not even one never read")
  .action(async (options: { config?: string; json?: boolean; cached?: boolean; budget: number; bias?: string }) => {
    const { catalog } = await import("./catalog.js");
    process.exitCode = await catalog(await discoveryConfig(options.config), options);
  });

program
  .command("refresh")
  .description("read servers' catalogues now (all, or those named) into the schema cache")
  .argument("[servers...]", "only these servers")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .option("--no-daemon", "start the servers in this process, not through the daemon (also: MCPX_NO_DAEMON=1)")
  .action(async (names: string[], options: { config?: string; json?: boolean; daemon?: boolean }) => {
    const { refresh } = await import("./refresh.js");
    process.exitCode = await refresh(await configFor(options.config), names, options);
  });

program
  .command("servers")
  .description("each configured upstream: state, negotiated revision, and what it offers (from the schema cache; --live starts them)")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .option("--live", "start every server and report on it now")
  .option("--no-daemon", "start the servers in this process, not through the daemon (also: MCPX_NO_DAEMON=1)")
  .option("--cached", "never start a server, not even one never read")
  .action(async (options: { config?: string; json?: boolean; live?: boolean; cached?: boolean; daemon?: boolean }) => {
    const { servers } = await import("./servers.js");
    process.exitCode = await servers(await configFor(options.config), options);
  });

program
  .command("tools")
  .description("the tools hosts see, by the names hosts call them, with the first line of each description (from the schema cache; --live starts the servers)")
  .argument("[server]", "only this server's tools")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .option("--live", "start the servers and list what they offer now")
  .option("--no-daemon", "start the servers in this process, not through the daemon (also: MCPX_NO_DAEMON=1)")
  .option("--cached", "never start a server, not even one never read")
  .action(async (server: string | undefined, options: { config?: string; json?: boolean; live?: boolean; cached?: boolean; daemon?: boolean }) => {
    const { tools } = await import("./tools.js");
    process.exitCode = await tools(await discoveryConfig(options.config), server, options);
  });

program
  .command("reload")
  .description("ask the mcpx serve --http or daemon serving this config to read it again now (it also does when the file changes)")
  .option("-c, --config <file>", "config file")
  .action(async (options: { config?: string }) => {
    const { reload } = await import("./reload.js");
    process.exitCode = reload(await configFor(options.config));
  });

program
  .command("audit")
  .description("the audit trail, oldest first: tool calls (whose, arguments with secrets redacted, outcome) and questions (who answered, the decision)")
  .option("--since <when>", "only entries since then: a duration back (30m, 12h, 7d) or an ISO 8601 time")
  .option("--server <name>", "only this server's")
  .option("--tool <name>", "only this tool's (the server's own name)")
  .option("--session <id>", "only this host session's")
  .option("--profile <name>", "only calls through this profile's endpoint")
  .option("--json", "JSON Lines, one entry a line (the export)")
  .option("-c, --config <file>", STORE_CONFIG_HELP)
  .action(async (options: { since?: string; server?: string; tool?: string; session?: string; profile?: string; json?: boolean; config?: string }) => {
    const { audit } = await import("./audit.js");
    process.exitCode = await audit(options, await commandConfig(options.config));
  });

program
  .command("doctor")
  .description("what is installed and configured, what is broken and what to do about it (starts no server)")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .action(async (options: { config?: string; json?: boolean }) => {
    const { doctor } = await import("./doctor.js");
    process.exitCode = await doctor(() => configFor(options.config), options);
  });

registerDaemon(program);
registerRun(program);
registerAuth(program);

program
  .command("ui")
  .description("serve only the question store: the web page at / and the REST API under /v1 (no gateway)")
  .option("--host <host>", "address to bind (default: 127.0.0.1; beyond loopback a host credential is required)")
  .option("--port <port>", `port to bind (default: ${UI_DEFAULT_PORT})`, parsePort)
  .option("--token-file <file>", "host credential that every client must send as a Bearer token (a file only you can read; default: $MCPX_HTTP_TOKEN)")
  .option("-c, --config <file>", STORE_CONFIG_HELP)
  .action(async (options: { host?: string; port?: number; tokenFile?: string; config?: string }) => {
    const { ui } = await import("./ui.js");
    await ui(options, await commandConfig(options.config));
  });

const tasks = program.command("tasks").description("the tasks mcpx relayed for hosts, from the store").option("-c, --config <file>", STORE_CONFIG_HELP);
/** The config `mcpx tasks … --config` names, when there is one. */
const tasksConfig = (): Promise<Config | undefined> => commandConfig(tasks.opts<{ config?: string }>().config);

tasks
  .command("show <id>")
  .description("one task: its server, tool, status as last heard, owner session, times, the mcpx process that follows it")
  .option("--json", "print the record as JSON")
  .action(async (id: string, options: { json?: boolean }) => {
    const { tasksShow } = await import("./tasks.js");
    await tasksShow(id, options, await tasksConfig());
  });

tasks
  .command("cancel <id>")
  .description("cancel a task: the mcpx process that follows it cancels it upstream")
  .action(async (id: string) => {
    const { tasksCancel } = await import("./tasks.js");
    await tasksCancel(id, await tasksConfig());
  });

tasks
  .command("list")
  .description("tasks not yet ended: id, tool, status, when created and last heard of")
  .option("--all", "ended tasks too")
  .option("--json", "print a JSON array")
  .action(async (options: { all?: boolean; json?: boolean }) => {
    const { tasksList } = await import("./tasks.js");
    await tasksList(options, await tasksConfig());
  });

program
  .command("link")
  .description("print a fresh one-time link to the question page of the mcpx serve --http or mcpx ui running on --port")
  .option("--host <host>", "the address the browser should use (default: 127.0.0.1)")
  .option("--port <port>", "the port it listens on (default: 7777, mcpx serve's; mcpx ui's is 7778)", parsePort)
  .option("-c, --config <file>", "the config whose store (store.url) holds the API token, and whose cluster.publicUrl the link is for")
  .action(async (options: { host?: string; port?: number; config?: string }) => {
    const { link } = await import("./link.js");
    await link(options, await commandConfig(options.config));
  });

program
  .command("import")
  .description("copy a host's MCP servers into an mcpx config: claude-desktop, claude-code, cursor, vscode, windsurf, cline")
  .argument("<host>")
  .option("--from <file>", "the host's config file (repeatable; default: where the host keeps it)", (v: string, all: string[] = []) => [...all, v])
  .option("--to <file>", "the mcpx config to write (default: ./mcpx.json; an existing one is backed up and kept otherwise)")
  .option("--dry-run", "print the change as a diff and write nothing")
  .option("--move-secrets", "write literal secrets (API keys, tokens) to a 0600 .env beside the config and ${VAR} references into it")
  .action(async (hostName: string, options: { from?: string[]; to?: string; dryRun?: boolean; moveSecrets?: boolean }) => {
    const { importHost } = await import("./import.js");
    process.exitCode = importHost(hostName, options);
  });

program
  .command("install")
  .description("add mcpx itself to a host's config (a backup first): claude-desktop, claude-code, cursor, vscode, windsurf, cline")
  .argument("<host>")
  .option("-c, --config <file>", "the mcpx config the host's mcpx will serve (default: $MCPX_CONFIG, else ./mcpx.json)")
  .option("--to <file>", "the host's config file (default: where the host keeps it)")
  .option("--name <name>", "the server name in the host's config (default: mcpx)")
  .option("--dry-run", "print the change as a diff and write nothing")
  .option("--replace", "move the host's servers into the mcpx config, so the host runs only mcpx (undo with --restore)")
  .option("--move-secrets", "with --replace: literal secrets go to a 0600 .env beside the mcpx config, as with mcpx import")
  .option("--restore", "put back the host's file as it was before mcpx was installed (from its backup)")
  .action(
    async (
      hostName: string,
      options: { config?: string; to?: string; name?: string; dryRun?: boolean; replace?: boolean; moveSecrets?: boolean; restore?: boolean },
    ) => {
      const { install } = await import("./install.js");
      process.exitCode = install(hostName, options);
    },
  );

/** `--limit`, `--budget`: a whole number from 1. */
function parseWhole(flag: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new CliError(`${flag} must be a whole number from 1, got ${value}`, Exit.Usage);
    return number;
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, got ${value}`, Exit.Usage);
  return port;
}

// `elicit` brings the question store's modules with it: registered only when no other command is named.
const named = process.argv[2] ?? "";
if (!program.commands.some((command) => command.name() === named) && named !== "-V" && named !== "--version") {
  (await import("./elicit/commands.js")).registerElicit(program);
}

/** Parse `argv` and run its command; commander's own errors (usage, help) set the exit code here. */
export async function runProgram(argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    process.exitCode = error.exitCode === 0 ? Exit.Ok : Exit.Usage;
  }
}
