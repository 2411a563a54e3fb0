/**
 * The tool calls of a `--runtime node` script, made by the mcpx command that runs it: each as
 * `mcpx call` makes one (the daemon's `/call`, or with `--no-daemon` a gateway in this
 * process), recorded in the store under a call id of its own. A call that waits on a question
 * is followed in the store: on a terminal the person is asked; off one the input-required
 * document goes to stderr and the call waits for an answer given elsewhere (`mcpx elicit
 * answer`, the page), bounded by the question's own deadline.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { Broker } from "../broker/broker.js";
import { stateDir } from "../broker/state-dir.js";
import type { BrokerStore } from "../broker/store-api.js";
import type { QuestionRecord } from "../broker/types.js";
import { findConfigPath } from "../config/config-path.js";
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { makeRecordedCall } from "../host/recorded-call.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import { createLogger } from "../util/log.js";
import { sleep } from "../util/sleep.js";
import { asker, checkedCall } from "./call.js";
import { openCommandStore } from "./open-store.js";
import { daemonRequest } from "./daemon-client.js";
import { daemonPaths } from "./daemon-file.js";
import { daemonWanted, reachDaemon, usable } from "./daemon-start.js";
import { followCall } from "./follow-call.js";
import { inertJson } from "./inert.js";
import { inputRequired } from "./input-required.js";
import type { RunFlags } from "./run-command.js";
import { failureMessage } from "./run-call.js";

export interface ToolCallMaker {
  /** The tool's CallToolResult; throws what the call failed with. */
  call(server: string, tool: string, args: JsonObject): Promise<JsonObject>;
  close(): Promise<void>;
}

const POLL_MS = 100;

export async function toolCallMaker(config: Config, flags: RunFlags): Promise<ToolCallMaker> {
  const store = await openCommandStore(config);
  const follow = async (callId: string): Promise<JsonObject> => {
    await followCall(store, callId, { json: true, out: discard(), ...(asker(store).ask ? asker(store) : { ask: waitForAnswers(store) }) });
    const call = await store.calls.get(callId);
    if (call?.state === "done" && call.result) return call.result;
    throw new Error(call?.error ?? "the call ended without a result");
  };
  return daemonWanted(flags.daemon === false) ? throughDaemon(config, store, follow) : await inProcess(config, store, follow);
}

function throughDaemon(config: Config, store: BrokerStore, follow: (callId: string) => Promise<JsonObject>): ToolCallMaker {
  const configFile = findConfigPath(config.file);
  const paths = daemonPaths(stateDir(), configFile);
  let record: ReturnType<typeof reachDaemon> | undefined;
  const daemon = () => (record ??= usable(paths, configFile).then((found) => found ?? reachDaemon(configFile, paths)));
  return {
    async call(server, tool, args) {
      const callId = randomUUID();
      const reply = await daemonRequest(await daemon(), "POST", "/call", { body: { callId, target: `${server}.${tool}`, args: [JSON.stringify(args)] } });
      const body = reply.body;
      if (reply.status !== 200 || body.status === "refused")
        throw new Error(String((body.error as { message?: string } | undefined)?.message ?? body.message ?? `HTTP ${reply.status}`));
      if (body.status === "ended") {
        const call = body.call as { state: string; result?: JsonObject; error?: string };
        if (call.state === "done" && call.result) return call.result;
        throw new Error(call.error ?? "the call failed");
      }
      return follow(callId);
    },
    close: () => store.close(),
  };
}

async function inProcess(config: Config, store: BrokerStore, follow: (callId: string) => Promise<JsonObject>): Promise<ToolCallMaker> {
  const log = createLogger({}, "error");
  const broker = new Broker(store, log);
  await broker.start(config.elicitation.retentionDays);
  const gateway = new Gateway(config, log, { broker, schemaCache: stateDir() });
  const stopper = new AbortController();
  return {
    async call(server, tool, args) {
      checkedCall(config, `${server}.${tool}`, [JSON.stringify(args)]); // what the config hides stays hidden
      const callId = randomUUID();
      await store.calls.create(callId, server, tool, args);
      await store.calls.setRunner(callId, process.pid);
      makeRecordedCall(gateway, { callId, server, tool, arguments: args }, { signal: stopper.signal })
        .then(
          (result) => store.calls.finish(callId, { result }),
          (error: unknown) => store.calls.finish(callId, { error: failureMessage(error) }),
        )
        .catch((error: unknown) => log.error("could not record how a call of the script ended", { call: callId, error }));
      return follow(callId);
    },
    async close() {
      stopper.abort(new Error("the script ended"));
      await gateway.stop();
      await broker.stop();
      await store.close();
    },
  };
}

/** Off a terminal: the questions on stderr as the input-required document, then wait until they are answered elsewhere (or expire). */
function waitForAnswers(store: BrokerStore): (questions: QuestionRecord[]) => Promise<void> {
  return async (questions) => {
    const callId = questions[0]!.callId ?? "";
    process.stderr.write(
      `mcpx: a tool call of the script waits on a question; answer it from another shell or the page (the script goes on then):\n${inertJson(JSON.stringify(inputRequired(callId, questions), null, 2))}\n`,
    );
    const pending = async (): Promise<boolean> => {
      for (const question of questions) if ((await store.questions.get(question.id))?.state === "pending") return true;
      return false;
    };
    while (await pending()) await sleep(POLL_MS);
  };
}

/** Where followCall's printing goes: the script gets the result, not the terminal. */
function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
