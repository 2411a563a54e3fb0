/**
 * Following a call made by `mcpx call` until it ends, or until it waits on a question that
 * this terminal must hand back (exit 75) or can ask the person at it (on a terminal).
 */
import type { BrokerStore } from "../broker/store-api.js";
import type { QuestionRecord } from "../broker/types.js";
import { sleep } from "../util/sleep.js";
import { Exit } from "./exit.js";
import { inputRequired } from "./input-required.js";
import { processAlive } from "../util/process.js";
import { inert, inertJson } from "./inert.js";
import { printOutcome } from "./call-result.js";
import { ProgressDisplay, progressFile } from "./call-progress.js";

const POLL_MS = 100;

export interface FollowOptions {
  json: boolean;
  /** Ask the person at the terminal; resolves once the questions are answered or skipped. */
  ask?: (questions: QuestionRecord[]) => Promise<void>;
  out?: NodeJS.WritableStream;
  logFile?: string;
  /** The calls directory: the upstream's progress there is shown on stderr (call-progress.ts). */
  progressDir?: string;
}

export async function followCall(store: BrokerStore, callId: string, options: FollowOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const asked = new Set<string>();
  let progress: ProgressDisplay | undefined;
  for (;;) {
    const call = await store.calls.get(callId);
    if (!call) {
      process.stderr.write(`mcpx: no call with id ${callId}\n`);
      return Exit.Error;
    }
    if (options.progressDir !== undefined)
      progress ??= new ProgressDisplay(progressFile(options.progressDir, callId), `${inert(call.server)}.${inert(call.tool)}`);
    if (call.state !== "running") {
      progress?.end();
      return printOutcome(call, options.json, out);
    }
    if (call.runnerPid !== undefined && !processAlive(call.runnerPid)) {
      process.stderr.write(`mcpx: the process running call ${callId} stopped before finishing${options.logFile ? `; see ${options.logFile}` : ""}\n`);
      return Exit.Error;
    }
    const pending = (await store.questions.ofCall(callId)).filter((question) => question.state === "pending" && !asked.has(question.id));
    if (pending.length > 0) {
      progress?.end(); // a bar is cleared before a question is shown
      if (!options.ask) {
        out.write(`${inertJson(JSON.stringify(inputRequired(callId, pending), null, 2))}\n`);
        return Exit.InputRequired;
      }
      for (const question of pending) asked.add(question.id);
      await options.ask(pending);
      continue;
    }
    progress?.update();
    await sleep(POLL_MS);
  }
}
