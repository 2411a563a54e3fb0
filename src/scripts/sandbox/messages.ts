/**
 * The messages between the main thread and a sandbox's worker, and the main thread's check of
 * every message it gets: the worker runs code a model wrote, so what comes from it is taken
 * only when it has exactly the expected shape (strings, small integers), and nothing else.
 */
import type { ScriptFailure, ScriptLimits, ScriptSource } from "../types.js";

export type Stream = 1 | 2;

/** What QuickJS runs: the script made JavaScript (source.ts), or why it could not be. */
export type Program = { ok: true; code: string } | { ok: false; failure: ScriptFailure };

export interface RunRequest {
  source: Pick<ScriptSource, "code" | "language" | "filename" | "args">;
  /**
   * The source made JavaScript by the process starting the run, so a worker need not load
   * sucrase; absent for a long source (run-script.ts), which the worker makes JavaScript itself.
   */
  program?: Program;
  /** The servers as the script reaches them (names only). */
  servers: { variable: string; server: string; tools: { fn: string; tool: string }[] }[];
  limits: Required<ScriptLimits>;
  /** When the run began (Date.now()): the deadline counts from here. */
  startedAt: number;
}

/** A run's request with its program, as the engine runs it. */
export type ProgramRequest = RunRequest & { program: Program };

export type ToWorker =
  | { type: "run"; request: RunRequest }
  /** A call's outcome: the value as JSON ("" for none), or the error's message. */
  | { type: "result"; id: number; ok: true; json: string }
  | { type: "result"; id: number; ok: false; message: string }
  | { type: "offer"; id: number; question: string }
  /** A question of the run waits: the deadline's clock stops... */
  | { type: "hold" }
  /** ...and goes on, the deadline now this (Date.now() time). */
  | { type: "resume"; deadline: number };

export type FromWorker =
  | { type: "ready" }
  | { type: "print"; stream: Stream; text: string }
  /** All bytes of a stream the worker has left out so far. */
  | { type: "dropped"; stream: Stream; bytes: number }
  | { type: "call"; id: number; server: string; tool: string; args: string }
  | { type: "handles" }
  /** The handler's answer as JSON, or nothing (it passed). */
  | { type: "answer"; id: number; answer?: string }
  | { type: "done"; value?: string; failure?: ScriptFailure; dropped: [number, number] };

const KINDS = new Set<ScriptFailure["kind"]>(["syntax", "thrown", "timeout", "memory", "calls", "stopped", "internal"]);
/** Longest message of a failure taken from the worker. */
const MAX_MESSAGE = 4_096;

/** `data` as a message from the worker, or undefined when it is not one. */
export function fromWorker(data: unknown): FromWorker | undefined {
  if (!isRecord(data)) return undefined;
  switch (data.type) {
    case "ready":
    case "handles":
      return { type: data.type };
    case "print":
      return isStream(data.stream) && typeof data.text === "string" ? { type: "print", stream: data.stream, text: data.text } : undefined;
    case "dropped":
      return isStream(data.stream) && isCount(data.bytes) ? { type: "dropped", stream: data.stream, bytes: data.bytes } : undefined;
    case "call":
      return isCount(data.id) && typeof data.server === "string" && typeof data.tool === "string" && typeof data.args === "string"
        ? { type: "call", id: data.id, server: data.server, tool: data.tool, args: data.args }
        : undefined;
    case "answer":
      if (!isCount(data.id) || (data.answer !== undefined && typeof data.answer !== "string")) return undefined;
      return { type: "answer", id: data.id, ...(data.answer === undefined ? {} : { answer: data.answer }) };
    case "done": {
      const dropped = data.dropped;
      if (!Array.isArray(dropped) || dropped.length !== 2 || !isCount(dropped[0]) || !isCount(dropped[1])) return undefined;
      if (data.value !== undefined && typeof data.value !== "string") return undefined;
      const failure = data.failure === undefined ? undefined : failureOf(data.failure);
      if (data.failure !== undefined && !failure) return undefined;
      return {
        type: "done",
        dropped: [dropped[0], dropped[1]],
        ...(data.value === undefined ? {} : { value: data.value }),
        ...(failure ? { failure } : {}),
      };
    }
    default:
      return undefined;
  }
}

function failureOf(data: unknown): ScriptFailure | undefined {
  if (!isRecord(data) || !KINDS.has(data.kind as ScriptFailure["kind"]) || typeof data.message !== "string") return undefined;
  const optional = (value: unknown): value is string | undefined => value === undefined || typeof value === "string";
  if (!optional(data.server) || !optional(data.tool) || (data.line !== undefined && !isCount(data.line))) return undefined;
  return {
    kind: data.kind as ScriptFailure["kind"],
    message: data.message.slice(0, MAX_MESSAGE),
    ...(data.server === undefined ? {} : { server: data.server.slice(0, MAX_MESSAGE) }),
    ...(data.tool === undefined ? {} : { tool: data.tool.slice(0, MAX_MESSAGE) }),
    ...(data.line === undefined ? {} : { line: data.line }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStream(value: unknown): value is Stream {
  return value === 1 || value === 2;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
