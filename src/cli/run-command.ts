/**
 * `mcpx exec '<typescript>'` and `mcpx run FILE [ARGS…]`: a script against the tools, in the
 * sandbox, through the daemon (`--no-daemon`: a runner of its own); `--typecheck` first checks
 * it against the client's declarations; `--runtime node` runs the person's own script in Node
 * instead, its tool calls still made by mcpx (run-node.ts).
 */
import type { ScriptSource } from "../scripts/types.js";
import { daemonWanted } from "./daemon-start.js";
import { CliError, Exit } from "./exit.js";
import { inert } from "./inert.js";
import type { RunKind } from "./run-record.js";

export interface RunFlags {
  config?: string;
  json?: boolean;
  /** false with --no-daemon */
  daemon?: boolean;
  typecheck?: boolean;
  runtime?: string;
  /** --typecheck reads the declarations from the cache alone. */
  cached?: boolean;
}

export async function runCommand(kind: RunKind, source: ScriptSource, flags: RunFlags): Promise<number> {
  const runtime = flags.runtime ?? "sandbox";
  if (runtime !== "sandbox" && runtime !== "node") throw new CliError(`--runtime is sandbox (the default) or node, got ${inert(runtime)}`, Exit.Usage);
  if (flags.typecheck) {
    const [{ configFor }, { typecheckBeforeRun }] = await Promise.all([import("./context.js"), import("./run-typecheck.js")]);
    const refused = await typecheckBeforeRun(await configFor(flags.config, { rules: false }), source, flags);
    if (refused !== undefined) return refused;
  }
  if (runtime === "node") {
    const { runInNode } = await import("./run-node.js");
    return runInNode(source, flags);
  }
  if (daemonWanted(flags.daemon === false)) {
    const { runThroughDaemon } = await import("./run-daemon.js");
    return runThroughDaemon(flags.config, kind, source, flags);
  }
  const [{ runWithRunner }, { configFor }] = await Promise.all([import("./run-runner.js"), import("./context.js")]);
  return runWithRunner(await configFor(flags.config), kind, source, flags);
}
