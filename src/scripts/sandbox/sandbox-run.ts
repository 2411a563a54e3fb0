/**
 * A script run as the main thread holds it: the worker it runs in, the tool calls it asks for
 * (each checked: a tool it was given, JSON arguments, within the limits), its output (capped
 * again here), its deadline (a fence beyond the worker's own), the questions offered to its
 * onElicit handler, and the envelope it ends with. The worker is ended with the run, whatever
 * ended it; the event loop here never waits on the script.
 */
import type { Worker } from "node:worker_threads";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type {
  RunningScript,
  ScriptAnswer,
  ScriptCallRecord,
  ScriptEnvelope,
  ScriptFailure,
  ScriptLimits,
  ScriptQuestion,
  ScriptServer,
  ScriptSource,
  ToolCaller,
} from "../types.js";
import { answerOf } from "./answer.js";
import { CappedText } from "./capped-text.js";
import { callsFailure } from "./failure.js";
import { type FromWorker, fromWorker, type Program, type ToWorker } from "./messages.js";
import { takeWorker, warmSandbox } from "./workers.js";

/** How long an onElicit handler may take to answer (and never beyond the run's deadline). */
export const OFFER_TIMEOUT_MS = 10_000;
/** The worker ends a run at its deadline; this much later the main thread ends the worker itself. */
const FENCE_GRACE_MS = 1_000;
const DEFAULT_ARGS_BYTES = 1024 * 1024;
/** Most a result may bring into the sandbox, whatever the memory (the worker's heap fence is 256 MB). */
const MAX_RESULT_BYTES = 32 * 1024 * 1024;

export function fullLimits(limits: ScriptLimits): Required<ScriptLimits> {
  return {
    ...limits,
    callArgsBytes: limits.callArgsBytes ?? DEFAULT_ARGS_BYTES,
    callResultBytes: Math.min(limits.callResultBytes ?? Math.floor(limits.memoryBytes / 4), MAX_RESULT_BYTES),
  };
}

export class SandboxRun implements RunningScript {
  readonly done: Promise<ScriptEnvelope>;
  readonly #servers: readonly ScriptServer[];
  readonly #caller: ToolCaller;
  readonly #limits: Required<ScriptLimits>;
  readonly #worker: Worker;
  readonly #stopper = new AbortController();
  readonly #output: CappedText;
  readonly #stderr: CappedText;
  readonly #calls: ScriptCallRecord[] = [];
  readonly #inFlight = new Map<ScriptCallRecord, number>();
  readonly #offers = new Map<number, (answer: ScriptAnswer | undefined) => void>();
  readonly #startedAt = Date.now();
  /** When the run must end: its start and timeout, plus the time questions of the run waited. */
  #deadline: number;
  #fence: NodeJS.Timeout | undefined;
  #holds = 0;
  #heldAt = 0;
  #workerDropped: [number, number] = [0, 0];
  #handles = false;
  #lastOffer = 0;
  #ended = false;
  #resolve!: (envelope: ScriptEnvelope) => void;

  constructor(source: ScriptSource, program: Program | undefined, servers: readonly ScriptServer[], caller: ToolCaller, limits: ScriptLimits) {
    this.#servers = servers;
    this.#caller = caller;
    this.#limits = fullLimits(limits);
    this.#output = new CappedText(limits.outputBytes);
    this.#stderr = new CappedText(limits.outputBytes);
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    this.#deadline = this.#startedAt + limits.timeoutMs;
    this.#armFence();
    this.#worker = takeWorker(limits.memoryBytes);
    this.#worker.on("message", (data: unknown) => this.#onMessage(data));
    this.#worker.on("error", (error: Error & { code?: string }) => {
      const memory = error.code === "ERR_WORKER_OUT_OF_MEMORY" || /out of memory/i.test(error.message);
      this.#finish({
        failure: { kind: memory ? "memory" : "internal", message: memory ? "the sandbox ran out of memory" : `the sandbox failed: ${error.message}` },
      });
    });
    this.#worker.on("exit", (code) => this.#finish({ failure: { kind: "internal", message: `the sandbox ended unexpectedly (exit code ${code})` } }));
    this.#send({
      type: "run",
      request: {
        source: { code: source.code, language: source.language, filename: source.filename, args: source.args },
        ...(program ? { program } : {}),
        servers: servers.map((server) => ({ variable: server.variable, server: server.server, tools: server.tools.map(({ fn, tool }) => ({ fn, tool })) })),
        limits: this.#limits,
        startedAt: this.#startedAt,
      },
    });
  }

  get handlesQuestions(): boolean {
    return this.#handles && !this.#ended;
  }

  offer(question: ScriptQuestion): Promise<ScriptAnswer | undefined> {
    if (!this.handlesQuestions) return Promise.resolve(undefined);
    const id = ++this.#lastOffer;
    return new Promise((resolve) => {
      const remaining = this.#holds > 0 ? OFFER_TIMEOUT_MS : this.#deadline - Date.now();
      const timer = setTimeout(() => settle(undefined), Math.max(0, Math.min(OFFER_TIMEOUT_MS, remaining)));
      const settle = (answer: ScriptAnswer | undefined) => {
        clearTimeout(timer);
        this.#offers.delete(id);
        resolve(answer);
      };
      this.#offers.set(id, settle);
      const { server, tool, message, requestedSchema } = question;
      this.#send({ type: "offer", id, question: JSON.stringify({ server, tool, message, requestedSchema }) });
    });
  }

  hold(): () => void {
    if (this.#ended) return () => {};
    if (this.#holds++ === 0) {
      this.#heldAt = Date.now();
      // While held, the worker bounds each stretch of the script's own running by the timeout.
      clearTimeout(this.#fence);
      this.#send({ type: "hold" });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0 || this.#ended) return;
      this.#deadline += Date.now() - this.#heldAt;
      this.#armFence();
      this.#send({ type: "resume", deadline: this.#deadline });
    };
  }

  /** The worker ends the run at its deadline; a moment later this ends the worker, whatever it is doing. */
  #armFence(): void {
    clearTimeout(this.#fence);
    this.#fence = setTimeout(() => this.#finish({ failure: this.#timeout() }), this.#deadline - Date.now() + FENCE_GRACE_MS);
  }

  stop(reason: string): void {
    this.#finish({ failure: { kind: "stopped", message: reason } });
  }

  #onMessage(data: unknown): void {
    if (this.#ended) return;
    const message = fromWorker(data);
    if (!message) {
      this.#finish({ failure: { kind: "internal", message: "the sandbox sent something that is not a message" } });
      return;
    }
    this.#handle(message);
  }

  #handle(message: FromWorker): void {
    switch (message.type) {
      case "ready":
        return;
      case "print":
        (message.stream === 2 ? this.#stderr : this.#output).add(message.text);
        return;
      case "dropped":
        this.#workerDropped[message.stream - 1] = Math.max(this.#workerDropped[message.stream - 1]!, message.bytes);
        return;
      case "handles":
        this.#handles = true;
        return;
      case "answer":
        this.#offers.get(message.id)?.(this.#answer(message.answer));
        return;
      case "call":
        void this.#call(message);
        return;
      case "done": {
        this.#workerDropped = [Math.max(this.#workerDropped[0], message.dropped[0]), Math.max(this.#workerDropped[1], message.dropped[1])];
        this.#finish({ ...(message.value === undefined ? {} : { value: message.value }), ...(message.failure ? { failure: message.failure } : {}) });
        return;
      }
    }
  }

  #answer(json: string | undefined): ScriptAnswer | undefined {
    const answer = answerOf(json);
    if (json !== undefined && !answer) this.#stderr.add("onElicit: the handler's answer is not {action, content} of an elicitation; the question goes on\n");
    return answer;
  }

  async #call(message: Extract<FromWorker, { type: "call" }>): Promise<void> {
    const { id, server, tool } = message;
    if (this.#calls.length >= this.#limits.maxCalls) {
      this.#finish({ failure: callsFailure(this.#limits.maxCalls) });
      return;
    }
    const target = this.#servers.find((s) => s.server === server)?.tools.find((t) => t.tool === tool);
    if (!target) {
      this.#reply({ type: "result", id, ok: false, message: `there is no tool "${tool}" on "${server}" for this script` });
      return;
    }
    const args = this.#argumentsOf(message.args);
    if (typeof args === "string") {
      this.#reply({ type: "result", id, ok: false, message: args });
      return;
    }
    const record: ScriptCallRecord = { server, tool, durationMs: 0, outcome: "failed" };
    this.#calls.push(record);
    const started = performance.now();
    this.#inFlight.set(record, started);
    let reply: ToWorker;
    try {
      const result = await this.#caller(server, tool, args, this.#stopper.signal);
      reply = this.#resultOf(id, result, target.structured, record);
    } catch (error) {
      reply = { type: "result", id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    if (this.#ended) return;
    this.#inFlight.delete(record);
    record.durationMs = Math.round(performance.now() - started);
    this.#reply(reply);
  }

  #argumentsOf(text: string): JsonObject | string {
    const size = Buffer.byteLength(text);
    if (size > this.#limits.callArgsBytes) return `the arguments are ${size} bytes as JSON, more than one call may send (${this.#limits.callArgsBytes})`;
    try {
      const args = JSON.parse(text) as unknown;
      return isObject(args) ? args : "the arguments must be an object";
    } catch {
      return "the arguments are not JSON";
    }
  }

  #resultOf(id: number, result: JsonObject, structured: boolean, record: ScriptCallRecord): ToWorker {
    if (result.isError === true) {
      record.outcome = "tool error";
      return { type: "result", id, ok: false, message: errorText(result) };
    }
    const value = structured && result.structuredContent !== undefined ? result.structuredContent : (result.content ?? []);
    const json = JSON.stringify(value) ?? "";
    const size = Buffer.byteLength(json);
    if (size > this.#limits.callResultBytes) {
      return {
        type: "result",
        id,
        ok: false,
        message: `the result is ${size} bytes as JSON, more than a script may take in (${this.#limits.callResultBytes})`,
      };
    }
    record.outcome = "ok";
    return { type: "result", id, ok: true, json };
  }

  #reply(message: ToWorker): void {
    if (!this.#ended) this.#send(message);
  }

  #send(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  #timeout(): ScriptFailure {
    return { kind: "timeout", message: `the script ran for more than ${this.#limits.timeoutMs / 1000} s (its deadline)` };
  }

  #finish(outcome: { value?: string; failure?: ScriptFailure }): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#fence);
    this.#stopper.abort(new Error(outcome.failure ? `the script ended: ${outcome.failure.message}` : "the script ended"));
    for (const settle of [...this.#offers.values()]) settle(undefined);
    const now = performance.now();
    for (const [record, started] of this.#inFlight) record.durationMs = Math.round(now - started);
    this.#inFlight.clear();
    this.#worker.removeAllListeners("exit");
    void this.#worker.terminate();
    warmSandbox(this.#limits.memoryBytes);
    this.#output.leaveOut(this.#workerDropped[0]);
    this.#stderr.leaveOut(this.#workerDropped[1]);
    const value = this.#valueOf(outcome.value);
    this.#resolve({
      ok: outcome.failure === undefined,
      output: this.#output.text(),
      stderr: this.#stderr.text(),
      ...(value === undefined ? {} : { value }),
      ...(outcome.failure ? { error: outcome.failure } : {}),
      calls: this.#calls,
    });
  }

  #valueOf(json: string | undefined): unknown {
    if (json === undefined || Buffer.byteLength(json) > this.#limits.outputBytes) return undefined;
    try {
      return JSON.parse(json) as unknown;
    } catch {
      return undefined;
    }
  }
}

/** A tool error result's message: its text blocks. */
function errorText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.filter((block): block is { type: "text"; text: string } => isObject(block) && block.type === "text" && typeof block.text === "string");
  return texts.map((block) => block.text).join("\n") || "the tool reported an error";
}
