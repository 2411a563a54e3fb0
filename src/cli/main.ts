/** The `mcpx` command line. Commands are thin: they parse, call the library, and set the exit code. */
import { Command, CommanderError } from "commander";
import { IMPLEMENTATION } from "../version.js";
import { configFor } from "./context.js";
import { CliError, Exit } from "./exit.js";
import { serve } from "./serve.js";
import { servers } from "./servers.js";
import { tools } from "./tools.js";
import { ui, UI_DEFAULT_PORT } from "./ui.js";
import { link } from "./link.js";
import { registerElicit } from "./elicit/commands.js";
import { registerDaemon } from "./daemon-commands.js";
import { importHost } from "./import.js";
import { install } from "./install.js";

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
  .action(async (options: { config?: string; http?: boolean; host?: string; port?: number }) => {
    await serve(configFor(options.config), options);
  });

program
  .command("servers")
  .description("each configured upstream: state, negotiated revision, and what it offers")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .action(async (options: { config?: string; json?: boolean }) => {
    process.exitCode = await servers(configFor(options.config), options.json === true);
  });

program
  .command("tools")
  .description("the tools hosts see, by the names hosts call them, with the first line of each description")
  .argument("[server]", "only this server's tools")
  .option("-c, --config <file>", "config file")
  .option("--json", "print JSON")
  .action(async (server: string | undefined, options: { config?: string; json?: boolean }) => {
    process.exitCode = await tools(configFor(options.config), server, options.json === true);
  });

registerDaemon(program);
registerElicit(program);

program
  .command("ui")
  .description("serve only the question store: the web page at / and the REST API under /v1 (no gateway)")
  .option("--host <host>", "address to bind (default: 127.0.0.1; beyond loopback a host credential is required)")
  .option("--port <port>", `port to bind (default: ${UI_DEFAULT_PORT})`, parsePort)
  .option("--token-file <file>", "host credential that every client must send as a Bearer token (a file only you can read; default: $MCPX_HTTP_TOKEN)")
  .action(async (options: { host?: string; port?: number; tokenFile?: string }) => {
    await ui(options);
  });

program
  .command("link")
  .description("print a fresh one-time link to the question page of the mcpx serve --http or mcpx ui running on --port")
  .option("--host <host>", "the address the browser should use (default: 127.0.0.1)")
  .option("--port <port>", "the port it listens on (default: 7777, mcpx serve's; mcpx ui's is 7778)", parsePort)
  .action((options: { host?: string; port?: number }) => {
    link(options);
  });

program
  .command("import")
  .description("copy a host's MCP servers into an mcpx config: claude-desktop, claude-code, cursor, vscode, windsurf, cline")
  .argument("<host>")
  .option("--from <file>", "the host's config file (repeatable; default: where the host keeps it)", (v: string, all: string[] = []) => [...all, v])
  .option("--to <file>", "the mcpx config to write (default: ./mcpx.json; an existing one is backed up and kept otherwise)")
  .option("--dry-run", "print the change as a diff and write nothing")
  .option("--move-secrets", "write literal secrets (API keys, tokens) to a 0600 .env beside the config and ${VAR} references into it")
  .action((hostName: string, options: { from?: string[]; to?: string; dryRun?: boolean; moveSecrets?: boolean }) => {
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
    (
      hostName: string,
      options: { config?: string; to?: string; name?: string; dryRun?: boolean; replace?: boolean; moveSecrets?: boolean; restore?: boolean },
    ) => {
      process.exitCode = install(hostName, options);
    },
  );

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, got ${value}`, Exit.Usage);
  return port;
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? Exit.Ok : Exit.Usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`mcpx: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`mcpx: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = Exit.Error;
  }
}
