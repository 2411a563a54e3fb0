/**
 * `mcpx call SERVER.TOOL ['{json args}']`: one tool call through the gateway.
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
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { QuestionStore } from "../broker/store.js";
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import { CliError, Exit } from "./exit.js";
import { followCall, type FollowOptions } from "./follow-call.js";
import { terminalAsker } from "./ask-terminal.js";
import { Broker } from "../broker/broker.js";
import { createLogger } from "../util/log.js";
import { GatewayError } from "../protocol/errors.js";

const BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

export interface CallOptions {
  json?: boolean;
}

export function parseTarget(target: string): { server: string; tool: string } {
  const dot = target.indexOf(".");
  if (dot <= 0 || dot === target.length - 1) throw new CliError(`expected SERVER.TOOL, got ${JSON.stringify(target)}`, Exit.Usage);
  return { server: target.slice(0, dot), tool: target.slice(dot + 1) };
}

export function parseArguments(text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`the arguments are not valid JSON: ${(error as Error).message}`, Exit.Usage);
  }
  if (!isObject(value)) throw new CliError("the arguments must be a JSON object", Exit.Usage);
  return value;
}

export async function call(config: Config, target: string, argsText: string | undefined, options: CallOptions): Promise<number> {
  const { server, tool } = parseTarget(target);
  const args = parseArguments(argsText);
  if (!config.servers.some((candidate) => candidate.name === server)) {
    const known = config.servers.map((candidate) => candidate.name).join(", ") || "none";
    throw new CliError(`no server named "${server}" in ${config.file} (configured: ${known})`, Exit.Usage);
  }
  const store = openStore();
  try {
    const callId = randomUUID();
    store.calls.create(callId, server, tool, args);
    const logFile = startRunner(config, callId);
    return await followCall(store, callId, { json: options.json === true, logFile, ...asker(store) });
  } finally {
    store.close();
  }
}

/** `mcpx result CALL_ID`: follow a call started earlier until it ends (or asks again). */
export async function collect(callId: string, options: CallOptions): Promise<number> {
  const store = openStore();
  try {
    return await followCall(store, callId, { json: options.json === true, ...asker(store) });
  } finally {
    store.close();
  }
}

/** The shared store; one that cannot be used is a clear error now, not a stack trace. */
function openStore(): QuestionStore {
  try {
    return QuestionStore.open(stateDir());
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
}

/** On a terminal, questions are put to the person at it; elsewhere the command exits 75. */
function asker(store: QuestionStore): Pick<FollowOptions, "ask"> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return {};
  return { ask: terminalAsker(new Broker(store, createLogger({}, "warn"))) };
}

/** Start the detached process that makes the call; its log goes to a private file. */
function startRunner(config: Config, callId: string): string {
  const dir = ensurePrivateDir(join(stateDir(), "calls")); // its 0700 also shields the logs in it
  const logFile = join(dir, `${callId}.log`);
  const log = openSync(logFile, "a", 0o600);
  const child = spawn(process.execPath, [BIN, "run-call", callId, "--config", config.file], {
    detached: true,
    stdio: ["ignore", "ignore", log],
    env: process.env,
  });
  child.unref();
  closeSync(log);
  return logFile;
}
