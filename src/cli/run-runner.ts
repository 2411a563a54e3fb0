/**
 * `mcpx exec|run --no-daemon`: the run made by a detached runner with a gateway of its own,
 * as `mcpx call --no-daemon` makes its call (call.ts), and followed in the store. So a
 * question off a terminal is exactly a call's: exit 75 with the input-required document, the
 * run going on in its runner until `mcpx result RUNID` collects it. The source reaches the
 * runner in a 0600 file in the private calls directory, which the runner removes once read.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Broker } from "../broker/broker.js";
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import type { ScriptSource } from "../scripts/types.js";
import { createLogger } from "../util/log.js";
import { asker, callsDir, signalRunner } from "./call.js";
import { openCommandStore } from "./open-store.js";
import { followCall } from "./follow-call.js";
import { StoppedBySignal } from "./run-call.js";
import { recordRun, type RunKind } from "./run-record.js";
import { scriptLimits } from "../scripts/limits.js";
import { makeRecordedRun } from "./run-recorded.js";

const BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

export async function runWithRunner(config: Config, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const store = await openCommandStore(config);
  try {
    const runId = randomUUID();
    const dir = ensurePrivateDir(callsDir());
    writeFileSync(sourceFile(dir, runId), source.code, { mode: 0o600 });
    await recordRun(store, runId, kind, source);
    const logFile = join(dir, `${runId}.log`);
    const log = openSync(logFile, "a", 0o600);
    const runner = spawn(process.execPath, [BIN, "run-script", runId, "--config", config.file], { detached: true, stdio: ["ignore", "ignore", log] });
    runner.unref();
    closeSync(log);
    const stop = (): void => {
      process.stderr.write(`mcpx: stopping run ${runId}\n`);
      if (runner.pid !== undefined) signalRunner(runner.pid);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    try {
      return await followCall(store, runId, { json: options.json === true, logFile, ...asker(store) });
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  } finally {
    await store.close();
  }
}

/** The runner (`mcpx run-script RUNID`, hidden): the run through a gateway of its own, recorded in the store. */
export async function runScriptRunner(config: Config, runId: string): Promise<number> {
  const log = createLogger({ run: runId });
  const store = await openCommandStore(config);
  const call = await store.calls.get(runId);
  const file = sourceFile(callsDir(), runId);
  let code: string | undefined;
  try {
    code = readFileSync(file, "utf8");
  } catch {
    // answered below
  } finally {
    rmSync(file, { force: true });
  }
  if (!call || code === undefined) {
    log.error("no such run in the store, or its source is gone");
    if (call) await store.calls.finish(runId, { error: "the run's source was gone before its runner read it" });
    await store.close();
    return 1;
  }
  await store.calls.setRunner(runId, process.pid);
  const broker = new Broker(store, log);
  await broker.start(config.elicitation.retentionDays);
  const gateway = new Gateway(config, log, { broker, schemaCache: stateDir() });
  const stopper = new AbortController();
  const stop = (signal: NodeJS.Signals): void => stopper.abort(new StoppedBySignal(signal));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const described = call.arguments;
  const source: ScriptSource = {
    code,
    language: described.language === "js" ? "js" : "ts",
    filename: typeof described.filename === "string" ? described.filename : `${call.tool}.ts`,
    args: Array.isArray(described.args) ? described.args.map(String) : [],
  };
  try {
    const envelope = await makeRecordedRun(gateway, store, runId, source, scriptLimits(config.scripts), stopper.signal);
    return envelope?.ok ? 0 : 1;
  } finally {
    await gateway.stop();
    await broker.stop();
    await store.close();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

function sourceFile(dir: string, runId: string): string {
  return join(dir, `${runId}.script`);
}
