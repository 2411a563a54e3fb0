/**
 * The commands that use a running mcpx for live servers: `call` (through the daemon unless
 * `--no-daemon`), `result`, and `daemon [status|stop]`; and the hidden `run-call` of
 * `--no-daemon`. Each loads its modules only when it runs: a warm `mcpx call` loads the few it
 * needs to send one request.
 */
import type { Command } from "commander";

interface CallFlags {
  config?: string;
  json?: boolean;
  /** false with --no-daemon */
  daemon?: boolean;
}

export function registerDaemon(program: Command): void {
  program
    .command("call")
    .description("call one tool through the gateway: mcpx call SERVER.TOOL '{\"arg\": 1}' or mcpx call SERVER__TOOL arg=1")
    .argument("<target>", "SERVER.TOOL, or SERVER__TOOL as hosts see it")
    .argument("[arguments...]", "the tool's arguments: one JSON object, or key=value pairs typed by the tool's inputSchema")
    .option("-c, --config <file>", "config file")
    .option("--json", "print the whole result as JSON")
    .option("--no-daemon", "make the call in a process of its own, not through the daemon (also: MCPX_NO_DAEMON=1)")
    .action(async (target: string, args: string[], options: CallFlags) => {
      const { daemonWanted } = await import("./daemon-start.js");
      if (daemonWanted(options.daemon === false)) {
        const { callThroughDaemon } = await import("./daemon-call.js");
        process.exitCode = await callThroughDaemon(options.config, target, args, options);
        return;
      }
      const [{ call }, { configFor }] = await Promise.all([import("./call.js"), import("./context.js")]);
      process.exitCode = await call(await configFor(options.config), target, args, options);
    });

  program
    .command("result")
    .description("collect the result of a call that stopped on a question (the callId from its input-required document, or a unique prefix of it)")
    .argument("<callId>")
    .option("--json", "print the whole result as JSON")
    .action(async (callId: string, options: { json?: boolean }) => {
      const { collect } = await import("./call.js");
      process.exitCode = await collect(callId, options);
    });

  program
    .command("run-call", { hidden: true })
    .argument("<callId>")
    .option("-c, --config <file>", "config file")
    .action(async (callId: string, options: { config?: string }) => {
      const [{ runCall }, { configFor }] = await Promise.all([import("./run-call.js"), import("./context.js")]);
      process.exitCode = await runCall(await configFor(options.config), callId);
    });

  program
    .command("daemon")
    .description("the mcpx that commands needing live servers use (started by them on first use): run it here, or see its status, or stop it")
    .argument("[action]", "status or stop; none: run it in the foreground")
    .option("-c, --config <file>", "config file")
    .option("--json", "print JSON (status)")
    .action(async (action: string | undefined, options: { config?: string; json?: boolean }) => {
      const { daemonCommand } = await import("./daemon-control.js");
      process.exitCode = await daemonCommand(action, options);
    });
}
