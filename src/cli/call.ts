/**
 * `mcpx call SERVER.TOOL ['{json args}' | key=value ...]`: one tool call through the gateway.
 *
 * The call runs in a detached process of its own (`run-call.ts`) and this command follows it.
 * If the upstream asks a question and this is not a terminal, the command prints the
 * input-required document and exits 75; the call keeps running, and `mcpx result ID`
 * collects it once someone has answered.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config/types.js";
import { SEPARATOR } from "../host/naming.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { type GivenArguments, parseGivenArguments } from "./tool-arguments.js";
import { hiddenBy } from "../config/tool-filter.js";
import { inert } from "./inert.js";
import type { BrokerStore } from "../broker/store-api.js";
import { openCommandStore } from "./open-store.js";
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import { CliError, Exit } from "./exit.js";
import { followCall, type FollowOptions } from "./follow-call.js";
import { terminalAsker } from "./ask-terminal.js";
import { Broker } from "../broker/broker.js";
import { createLogger } from "../util/log.js";

const BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

export interface CallOptions {
  json?: boolean;
}

/**
 * `server.tool`, or `server__tool` as hosts see it. A server whose name has a dot or `__` in
 * it is matched whole first, the longest configured name winning.
 */
export function parseTarget(target: string, servers: readonly string[] = []): { server: string; tool: string } {
  const configured = [...servers]
    .sort((a, b) => b.length - a.length)
    .find((server) => [".", SEPARATOR].some((separator) => target.startsWith(server + separator) && target.length > server.length + separator.length));
  if (configured) return { server: configured, tool: target.slice(configured.length + (target[configured.length] === "." ? 1 : SEPARATOR.length)) };
  const dot = target.indexOf(".");
  const underscores = target.indexOf(SEPARATOR);
  const at = dot > 0 && (underscores <= 0 || dot < underscores) ? dot : underscores;
  const width = at === dot ? 1 : SEPARATOR.length;
  if (at <= 0 || at + width >= target.length) {
    throw new CliError(`expected SERVER.TOOL or SERVER__TOOL, got ${JSON.stringify(target)}`, Exit.Usage);
  }
  return { server: target.slice(0, at), tool: target.slice(at + width) };
}

/** Set for the runner when the arguments are `key=value` text, to be typed by the tool's inputSchema. */
export const TYPE_ARGUMENTS_ENV = "MCPX_CALL_TYPE_ARGUMENTS";

/** The server, tool and arguments of a call the config allows, or a usage error saying why not. */
export function checkedCall(config: Config, target: string, argsText: readonly string[]): { server: string; tool: string; given: GivenArguments } {
  const names = config.servers.map((candidate) => candidate.name);
  const { server, tool } = parseTarget(target, names);
  const given = parseGivenArguments(argsText);
  if (!names.includes(server)) {
    const known = names.join(", ") || "none";
    throw new CliError(`no server named "${server}" in ${config.file}${didYouMean(nearest(server, names))} (configured: ${known})`, Exit.Usage);
  }
  // What the config hides from hosts it hides from the terminal too.
  const hidden = hiddenBy(config.servers.find((candidate) => candidate.name === server)?.tools, tool);
  if (hidden) {
    const why = hidden === "deny" ? "its tools.deny" : "it is not in its tools.allow";
    throw new CliError(`tool "${tool}" of server "${server}" is hidden by the config (${why}, in ${config.file})`, Exit.Usage);
  }
  return { server, tool, given };
}

/** `mcpx call --no-daemon`: the call made by a detached runner of its own, followed in the store. */
export async function call(config: Config, target: string, argsText: readonly string[], options: CallOptions): Promise<number> {
  const { server, tool, given } = checkedCall(config, target, argsText);
  const store = await openCommandStore(config);
  try {
    const callId = randomUUID();
    await store.calls.create(callId, server, tool, given.kind === "json" ? given.value : given.pairs);
    const runner = startRunner(config, callId, given.kind === "pairs");
    // Stopping this command (Ctrl-C, SIGTERM) stops the call it started, and with it the upstream.
    const stop = (): void => {
      process.stderr.write(`mcpx: stopping call ${callId}\n`);
      if (runner.pid !== undefined) signalRunner(runner.pid);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    try {
      return await followCall(store, callId, { json: options.json === true, logFile: runner.logFile, progressDir: callsDir(), ...asker(store) });
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  } finally {
    await store.close();
  }
}

/**
 * `mcpx result CALL_ID`: follow a call started earlier until it ends (or asks again). Without
 * a config (`mcpx result` reads none), the state directory's store.
 */
export async function collect(given: string, options: CallOptions, logFile?: string, config?: Pick<Config, "store">): Promise<number> {
  const store = await openCommandStore(config);
  try {
    return await followCall(store, await resolveCallId(store, given), {
      json: options.json === true,
      progressDir: callsDir(),
      ...(logFile ? { logFile } : {}),
      ...asker(store),
    });
  } finally {
    await store.close();
  }
}

const SHOWN_MATCHES = 10;

/** A whole call id, or a prefix of exactly one; an ambiguous prefix lists what it matches. */
export async function resolveCallId(store: BrokerStore, given: string): Promise<string> {
  if (given === "" || (await store.calls.get(given))) return given;
  const matches = await store.calls.idsStartingWith(given, SHOWN_MATCHES + 1);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new CliError(`no call with id ${inert(given)} (nor one starting with it)`);
  const more = matches.length > SHOWN_MATCHES ? "\n  …and more" : "";
  throw new CliError(
    `${inert(given)} starts more than one call id; give more of it:\n${matches
      .slice(0, SHOWN_MATCHES)
      .map((id) => `  ${id}`)
      .join("\n")}${more}`,
    Exit.Usage,
  );
}

/** On a terminal, questions are put to the person at it; elsewhere the command exits 75. */
export function asker(store: BrokerStore): Pick<FollowOptions, "ask"> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return {};
  return { ask: terminalAsker(new Broker(store, createLogger({}, "warn"))) };
}

/** Start the detached process that makes the call; its log goes to a private file. */
export function signalRunner(pid: number): void {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already gone: following the call reports how it ended
  }
}

/** Where each call's log and progress are kept. */
export function callsDir(): string {
  return join(stateDir(), "calls");
}

function startRunner(config: Config, callId: string, typeArguments: boolean): { logFile: string; pid: number | undefined } {
  const dir = ensurePrivateDir(callsDir()); // its 0700 also shields the logs in it
  const logFile = join(dir, `${callId}.log`);
  const log = openSync(logFile, "a", 0o600);
  const child = spawn(process.execPath, [BIN, "run-call", callId, "--config", config.file], {
    detached: true,
    stdio: ["ignore", "ignore", log],
    env: typeArguments ? { ...process.env, [TYPE_ARGUMENTS_ENV]: "1" } : process.env,
  });
  child.unref();
  closeSync(log);
  return { logFile, pid: child.pid };
}
