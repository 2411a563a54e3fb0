/**
 * The script commands: `exec`, `run`, and the hidden `run-script` runner of `--no-daemon`.
 * Each loads its modules only when it runs.
 */
import type { Command } from "commander";
import type { RunFlags } from "./run-command.js";

function scriptOptions(command: Command): Command {
  return command
    .option("-c, --config <file>", "config file")
    .option("--json", 'print one envelope: {"ok", "output", "value", "error", "calls", "stderr"}')
    .option("--typecheck", "check the script against the tools' declarations (mcpx client) first; problems exit 2 and nothing runs")
    .option("--cached", "with --typecheck: never start a server to read its tools, not even one never read")
    .option(
      "--runtime <runtime>",
      "sandbox (default: QuickJS, reaches nothing but the tools) or node (your own script with Node's APIs; tools still through mcpx)",
    )
    .option("--no-daemon", "run it in a process of its own, not through the daemon (also: MCPX_NO_DAEMON=1)");
}

export function registerRun(program: Command): void {
  scriptOptions(
    program
      .command("exec")
      .description("run a TypeScript snippet against the tools: each server a global, each tool an async method (mcpx exec 'console.log(await srv.tool({}))')")
      .argument("<code>", "the TypeScript (a snippet may return a value), or - to read it from stdin")
      .argument("[args...]", "what the script sees as args (after --)"),
  ).action(async (code: string, args: string[], flags: RunFlags) => {
    const [{ execSource }, { runCommand }] = await Promise.all([import("./run-source.js"), import("./run-command.js")]);
    process.exitCode = await runCommand("exec", execSource(code, args), flags);
  });

  scriptOptions(
    program
      .command("run")
      .description("run a TypeScript (.ts) or JavaScript (.js) file against the tools, as mcpx exec does")
      .argument("<file>", "the script, or - to read it from stdin")
      .argument("[args...]", "what the script sees as args (put -- before any that start with -)"),
  ).action(async (file: string, args: string[], flags: RunFlags) => {
    const [{ fileSource }, { runCommand }] = await Promise.all([import("./run-source.js"), import("./run-command.js")]);
    process.exitCode = await runCommand("run", fileSource(file, args), flags);
  });

  program
    .command("run-script", { hidden: true })
    .argument("<runId>")
    .option("-c, --config <file>", "config file")
    .action(async (runId: string, options: { config?: string }) => {
      const [{ runScriptRunner }, { configFor }] = await Promise.all([import("./run-runner.js"), import("./context.js")]);
      process.exitCode = await runScriptRunner(await configFor(options.config), runId);
    });
}
