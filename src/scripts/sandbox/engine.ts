/**
 * One script run inside the worker: a QuickJS runtime with the run's memory, stack and deadline,
 * the prelude's globals, and the few native functions that leave it (a tool call, a line of
 * output, a timer, "I handle questions"). Everything the script hands out is read as a string
 * or a number and checked here; the main thread checks it again.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { ScriptFailure } from "../types.js";
import { CappedText } from "./capped-text.js";
import { callsFailure, type ErrorReport, failureOf, lineOf } from "./failure.js";
import type { FromWorker, ProgramRequest, Stream, ToWorker } from "./messages.js";
import { PRELUDE, PRELUDE_FILENAME } from "./prelude.js";
import { syntaxFailure } from "./program-text.js";

/** QuickJS's own stack (the worker's V8 stack, 8 MB, holds several times this: see workers.ts). */
export const STACK_BYTES = 1024 * 1024;
/** How often, at most, the worker tells how much output it has left out while a script floods. */
const DROPPED_EVERY_MS = 100;

type Post = (message: FromWorker) => void;

/** A runtime made ahead of its run, the prelude compiled in it: all a warm worker has left to do is the script. */
export interface Prepared {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  /** The prelude's function, not yet called. */
  prelude: QuickJSHandle;
}

export function prepare(module: QuickJSWASMModule): Prepared {
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const prelude = context.unwrapResult(context.evalCode(PRELUDE, PRELUDE_FILENAME));
  return { runtime, context, prelude };
}
type Result = Extract<ToWorker, { type: "result" }>;

export class EngineRun {
  readonly #request: ProgramRequest;
  readonly #post: Post;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  #deadline: number;
  #deadlineTimer: NodeJS.Timeout | undefined;
  /** A question of the run waits: the deadline's clock is stopped. */
  #held = false;
  /** When the script's code last began to run: held or not, it may run at most the timeout at a stretch. */
  #burstStart = Date.now();
  readonly #streams: Record<Stream, CappedText>;
  readonly #calls = new Map<number, QuickJSDeferredPromise>();
  readonly #sleeps = new Set<QuickJSDeferredPromise>();
  readonly #offers = new Map<number, QuickJSHandle>();
  readonly #prelude: QuickJSHandle;
  #hooks: QuickJSHandle | undefined;
  #main: QuickJSHandle | undefined;
  #callsMade = 0;
  #lastDropped = 0;
  /** Set by a native function that must end the run; the interrupt handler then stops QuickJS. */
  #ending: ScriptFailure | undefined;
  #finished = false;

  constructor(prepared: Prepared, request: ProgramRequest, post: Post) {
    this.#request = request;
    this.#post = post;
    this.#deadline = request.startedAt + request.limits.timeoutMs;
    this.#streams = { 1: new CappedText(request.limits.outputBytes), 2: new CappedText(request.limits.outputBytes) };
    this.#runtime = prepared.runtime;
    this.#runtime.setMemoryLimit(request.limits.memoryBytes);
    this.#runtime.setMaxStackSize(STACK_BYTES);
    this.#runtime.setInterruptHandler(() => this.#ending !== undefined || this.#overdue());
    this.#context = prepared.context;
    this.#prelude = prepared.prelude;
  }

  start(): void {
    const { source, program } = this.#request;
    if (!program.ok) {
      this.#end({ failure: program.failure });
      return;
    }
    const hooks = this.#installPrelude();
    if (!hooks) return;
    this.#hooks = hooks;
    this.#burstStart = Date.now();
    const evaluated = this.#context.evalCode(program.code, source.filename);
    if (evaluated.error) {
      const report = this.#read(evaluated.error);
      evaluated.error.dispose();
      if (report.name === "SyntaxError") {
        this.#end({ failure: syntaxFailure(source.code, report.message ?? "syntax error", lineOf(report.stack, source.filename)) });
        return;
      }
      this.#end({ failure: this.#failure(report) });
      return;
    }
    this.#main = evaluated.value;
    this.#armDeadline();
    this.#pump();
  }

  /** A question of the run waits: its time does not count. */
  hold(): void {
    this.#held = true;
    clearTimeout(this.#deadlineTimer);
  }

  resume(deadline: number): void {
    this.#held = false;
    this.#deadline = deadline;
    if (this.#main) this.#armDeadline();
  }

  #armDeadline(): void {
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = setTimeout(() => this.#end({ failure: this.#timeout() }), Math.max(0, this.#deadline - Date.now()));
  }

  #overdue(): boolean {
    const now = Date.now();
    return this.#held ? now - this.#burstStart >= this.#request.limits.timeoutMs : now >= this.#deadline;
  }

  /** A tool call's outcome from the main thread. */
  result(message: Result): void {
    const deferred = this.#calls.get(message.id);
    if (this.#finished || !deferred) return;
    this.#calls.delete(message.id);
    this.#resolve(deferred, message.ok ? `v${message.json}` : `e${message.message}`);
  }

  /** A question for the script's onElicit handler. */
  offer(id: number, question: string): void {
    if (this.#finished || !this.#hooks) {
      this.#post({ type: "answer", id });
      return;
    }
    const context = this.#context;
    const offer = context.getProp(this.#hooks, "offer");
    const text = context.newString(question);
    this.#burstStart = Date.now();
    const called = context.callFunction(offer, context.undefined, text);
    offer.dispose();
    text.dispose();
    if (called.error) {
      called.error.dispose();
      this.#post({ type: "answer", id });
    } else this.#offers.set(id, called.value);
    this.#pump();
  }

  #installPrelude(): QuickJSHandle | undefined {
    const context = this.#context;
    const host = context.newObject();
    this.#native(host, "print", (stream, text) => (this.#print(stream, text) ? context.true : context.false));
    this.#native(host, "call", (server, tool, args) => this.#call(server, tool, args));
    this.#native(host, "sleep", (ms) => this.#sleep(ms));
    this.#native(host, "handles", () => {
      this.#post({ type: "handles" });
      return undefined;
    });
    this.#native(host, "uncaught", (error) => {
      this.#ending ??= this.#failure(this.#read(error));
      return undefined;
    });
    const servers = context.newString(JSON.stringify(this.#request.servers));
    const args = context.newString(JSON.stringify(this.#request.source.args));
    const called = context.callFunction(this.#prelude, context.undefined, host, servers, args);
    for (const handle of [this.#prelude, host, servers, args]) handle.dispose();
    if (called.error) {
      called.error.dispose();
      this.#end({ failure: { kind: "internal", message: "the sandbox's prelude failed" } });
      return undefined;
    }
    return called.value;
  }

  #native(target: QuickJSHandle, name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined): void {
    const handle = this.#context.newFunction(name, fn);
    this.#context.setProp(target, name, handle);
    handle.dispose();
  }

  /** Prints a line; true when the stream is full (the prelude then only counts what more it prints). */
  #print(streamHandle: QuickJSHandle, textHandle: QuickJSHandle): boolean {
    const context = this.#context;
    const stream: Stream = context.typeof(streamHandle) === "number" && context.getNumber(streamHandle) === 2 ? 2 : 1;
    if (context.typeof(textHandle) !== "string") return false;
    const capped = this.#streams[stream];
    const before = capped.leftOut;
    const kept = capped.add(`${context.getString(textHandle)}\n`);
    if (kept) this.#post({ type: "print", stream, text: kept });
    if (capped.leftOut > before && Date.now() - this.#lastDropped >= DROPPED_EVERY_MS) {
      this.#lastDropped = Date.now();
      this.#post({ type: "dropped", stream, bytes: capped.leftOut });
    }
    return capped.leftOut > 0;
  }

  #call(serverHandle: QuickJSHandle, toolHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
    const context = this.#context;
    const deferred = context.newPromise();
    const strings = [serverHandle, toolHandle, argsHandle].every((handle) => context.typeof(handle) === "string");
    if (!strings) {
      this.#resolve(deferred, "ethe call was not made of strings", false);
      return deferred.handle;
    }
    const { limits } = this.#request;
    const args = context.getString(argsHandle);
    const size = Buffer.byteLength(args);
    if (size > limits.callArgsBytes) {
      this.#resolve(deferred, `ethe arguments are ${size} bytes as JSON, more than one call may send (${limits.callArgsBytes})`, false);
      return deferred.handle;
    }
    if (++this.#callsMade > limits.maxCalls) {
      this.#ending ??= callsFailure(limits.maxCalls);
      return deferred.handle;
    }
    const id = this.#callsMade;
    this.#calls.set(id, deferred);
    this.#post({ type: "call", id, server: context.getString(serverHandle), tool: context.getString(toolHandle), args });
    return deferred.handle;
  }

  #sleep(msHandle: QuickJSHandle): QuickJSHandle {
    const context = this.#context;
    const deferred = context.newPromise();
    const ms = context.typeof(msHandle) === "number" ? context.getNumber(msHandle) : 0;
    const wait = Number.isFinite(ms) ? Math.max(0, ms) : 0;
    this.#sleeps.add(deferred);
    // Always armed, even past the deadline: a question may hold the deadline before it comes (a
    // sleep left unarmed then waited for ever, with no code running to notice the time). One
    // that fires after the run ended does nothing.
    setTimeout(() => {
      this.#sleeps.delete(deferred);
      this.#resolve(deferred, "");
    }, wait);
    return deferred.handle;
  }

  /** Settles a promise the script awaits and runs what that lets run (unless inside QuickJS already). */
  #resolve(deferred: QuickJSDeferredPromise, text: string, pump = true): void {
    if (this.#finished) return;
    const handle = this.#context.newString(text);
    deferred.resolve(handle);
    handle.dispose();
    if (pump) this.#pump();
  }

  /** Runs the script's pending jobs, then sees whether it ended. */
  #pump(): void {
    if (this.#finished) return;
    this.#burstStart = Date.now();
    const ran = this.#runtime.executePendingJobs();
    if (ran.error) {
      const report = this.#read(ran.error);
      ran.error.dispose();
      this.#end({ failure: this.#ending ?? (this.#overdue() ? this.#timeout(report) : this.#failure(report)) });
      return;
    }
    if (this.#ending) {
      this.#end({ failure: this.#ending });
      return;
    }
    this.#answerOffers();
    this.#settleMain();
  }

  #settleMain(): void {
    const main = this.#main;
    if (this.#finished || !main) return;
    const state = this.#context.getPromiseState(main);
    if (state.type === "rejected") {
      const report = this.#read(state.error);
      state.error.dispose();
      this.#end({ failure: this.#failure(report) });
      return;
    }
    if (state.type === "fulfilled") {
      const value = this.#encode(state.value);
      state.value.dispose();
      this.#end(value);
      return;
    }
    if (this.#calls.size === 0 && this.#sleeps.size === 0 && this.#offers.size === 0) {
      this.#end({ failure: { kind: "thrown", message: "the script awaits a promise that nothing can settle (no tool call or timer is pending)" } });
    }
  }

  #answerOffers(): void {
    for (const [id, promise] of this.#offers) {
      const state = this.#context.getPromiseState(promise);
      if (state.type === "pending") continue;
      this.#offers.delete(id);
      promise.dispose();
      if (state.type === "rejected") {
        state.error.dispose();
        this.#post({ type: "answer", id });
        continue;
      }
      const text = this.#context.typeof(state.value) === "string" ? this.#context.getString(state.value) : undefined;
      state.value.dispose();
      this.#post({ type: "answer", id, ...(text === undefined ? {} : { answer: text }) });
    }
  }

  /** The script's value as JSON, or nothing; one bigger than the output limit is left out, said on stderr. */
  #encode(value: QuickJSHandle): { value?: string; failure?: ScriptFailure } {
    const context = this.#context;
    if (context.typeof(value) === "undefined" || !this.#hooks) return {};
    const json = context.getProp(this.#hooks, "json");
    const encoded = context.callFunction(json, context.undefined, value);
    json.dispose();
    if (encoded.error) {
      const report = this.#read(encoded.error);
      encoded.error.dispose();
      return { failure: { kind: "thrown", message: `the script's value cannot be made JSON (${report.message ?? report.shown ?? "?"})` } };
    }
    const text = context.typeof(encoded.value) === "string" ? context.getString(encoded.value) : undefined;
    encoded.value.dispose();
    if (text === undefined) return {};
    const size = Buffer.byteLength(text);
    const limit = this.#request.limits.outputBytes;
    if (size <= limit) return { value: text };
    this.#print2(`the script's value was left out: ${size} bytes as JSON, more than the output limit (${limit})`);
    return {};
  }

  #print2(text: string): void {
    const kept = this.#streams[2].add(`${text}\n`);
    if (kept) this.#post({ type: "print", stream: 2, text: kept });
  }

  /** What a thrown value says of itself, read without trusting it (getters may throw). */
  #read(error: QuickJSHandle): ErrorReport {
    const context = this.#context;
    try {
      if (context.typeof(error) !== "object") return { shown: String(context.dump(error)) };
      const report: ErrorReport = {};
      for (const key of ["name", "message", "stack", "server", "tool", "callSite"] as const) {
        const prop = context.getProp(error, key);
        if (context.typeof(prop) === "string") report[key] = context.getString(prop);
        prop.dispose();
      }
      if (report.name === undefined && report.message === undefined) {
        const shown = context.dump(error) as unknown;
        return { shown: typeof shown === "string" ? shown : JSON.stringify(shown) };
      }
      return report;
    } catch {
      return { shown: "an error that cannot be read" };
    }
  }

  #failure(report: ErrorReport): ScriptFailure {
    if (report.name === "InternalError" && report.message === "interrupted") return this.#ending ?? this.#timeout(report);
    return failureOf(report, this.#request.source.filename, this.#request.limits.memoryBytes);
  }

  #timeout(report?: ErrorReport): ScriptFailure {
    const line = lineOf(report?.stack, this.#request.source.filename);
    const seconds = this.#request.limits.timeoutMs / 1000;
    return { kind: "timeout", message: `the script ran for more than ${seconds} s (its deadline)`, ...(line === undefined ? {} : { line }) };
  }

  #end(outcome: { value?: string; failure?: ScriptFailure }): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#streams[1].leaveOut(this.#countedInside(1));
    this.#streams[2].leaveOut(this.#countedInside(2));
    // Nothing is disposed: the main thread ends this worker now, and with it the whole runtime.
    this.#post({
      type: "done",
      dropped: [this.#streams[1].leftOut, this.#streams[2].leftOut],
      ...(outcome.value === undefined ? {} : { value: outcome.value }),
      ...(outcome.failure ? { failure: outcome.failure } : {}),
    });
  }

  /** Bytes the prelude counted without printing them (a plain number on its hooks: reading it runs no script). */
  #countedInside(stream: Stream): number {
    const hooks = this.#hooks;
    if (!hooks) return 0;
    try {
      const handle = this.#context.getProp(hooks, `dropped${stream}`);
      const bytes = this.#context.typeof(handle) === "number" ? this.#context.getNumber(handle) : 0;
      handle.dispose();
      return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : 0;
    } catch {
      return 0;
    }
  }
}
