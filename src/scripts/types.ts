/**
 * What a script run is, as every part of mcpx that runs scripts sees it (`mcpx run`/`exec`,
 * `mcpx__exec`): its source, the tools it may reach, its limits, and what it ends with. The
 * sandbox (scripts/sandbox/) runs it; whoever starts it supplies the one way out, a
 * `ToolCaller`, which makes each call on the path every call takes (design rule 11).
 */
import type { JsonObject } from "../protocol/jsonrpc.js";

export interface ScriptSource {
  /** TypeScript (types are stripped, never checked here) or JavaScript. */
  code: string;
  language: "ts" | "js";
  /** Named in errors ("script.ts:3"); never echoed with the source. */
  filename: string;
  /** What the script sees as `args` (`mcpx run FILE ARGS…`). */
  args: string[];
}

export interface ScriptLimits {
  /** The sandbox's heap. */
  memoryBytes: number;
  /** Wall clock from start to end, tool calls included. */
  timeoutMs: number;
  /** Of printed output (stdout-like and stderr-like each); beyond it, cut with a marker. */
  outputBytes: number;
  /** Tool calls per run. */
  maxCalls: number;
  /** Of one call's arguments as JSON (default 1 MiB): a bigger call fails in the script. */
  callArgsBytes?: number;
  /** Of one call's result as JSON (default a quarter of memoryBytes): a bigger one fails the call. */
  callResultBytes?: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = {
  memoryBytes: 64 * 1024 * 1024,
  timeoutMs: 30_000,
  outputBytes: 64 * 1024,
  maxCalls: 1_000,
};

/** One tool as a script reaches it: `server.fn(args)`. */
export interface ScriptTool {
  /** The method's name on the server's object: the tool's name made an identifier. */
  fn: string;
  /** The tool's name as its server lists it. */
  tool: string;
  /** It declares an outputSchema: its call returns the structured content, typed. */
  structured: boolean;
}

/** One server as a script reaches it: a global object of that name. */
export interface ScriptServer {
  /** The global's name: the server's name made an identifier (`my-server` → `my_server`). */
  variable: string;
  server: string;
  tools: ScriptTool[];
}

/**
 * Makes one tool call for the script: resolves with the MCP CallToolResult (an `isError`
 * result too), rejects with the call's failure (its message is shown to the script).
 */
export type ToolCaller = (server: string, tool: string, args: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

/** A question a tool call of the run raised, as `onElicit` handlers see it. */
export interface ScriptQuestion {
  server: string;
  tool: string;
  message: string;
  requestedSchema: JsonObject;
}

/** What an `onElicit` handler answered. */
export interface ScriptAnswer {
  action: "accept" | "decline" | "cancel";
  content?: JsonObject;
}

export interface ScriptCallRecord {
  server: string;
  tool: string;
  durationMs: number;
  outcome: "ok" | "tool error" | "failed";
}

export interface ScriptFailure {
  /**
   * syntax: the source does not parse; thrown: the script threw (a tool's error included,
   * then with server and tool); timeout, memory, calls: a limit ended it; stopped: its caller
   * stopped it; internal: mcpx failed.
   */
  kind: "syntax" | "thrown" | "timeout" | "memory" | "calls" | "stopped" | "internal";
  message: string;
  server?: string;
  tool?: string;
  /** Line of the script where it happened, when known. */
  line?: number;
}

/** How a run ended: the `--json` envelope (`stderr` beside it). */
export interface ScriptEnvelope {
  ok: boolean;
  /** What the script printed (console.log, .info, …), cut at the limit with a marker. */
  output: string;
  /** What it printed as errors and warnings (console.error, .warn), kept apart. */
  stderr: string;
  /** What the script returned (JSON; undefined: nothing). */
  value?: unknown;
  error?: ScriptFailure;
  calls: ScriptCallRecord[];
}

export interface RunningScript {
  readonly done: Promise<ScriptEnvelope>;
  /** The script registered an `onElicit` handler (and has not ended). */
  readonly handlesQuestions: boolean;
  /**
   * Offer a question to the script's handler: its answer, or undefined when it passes (or has
   * none, or fails, or the run ends first). Only questions an agent may answer are offered.
   */
  offer(question: ScriptQuestion): Promise<ScriptAnswer | undefined>;
  /**
   * Stop the deadline's clock until the returned function is called: a question of the run
   * waits for an answer, and a person's time is not the script's. Holds nest. While held, the
   * script's code may still run at most the timeout at a stretch.
   */
  hold(): () => void;
  /** End the run now; it fails with kind "stopped" and this message. */
  stop(reason: string): void;
}
