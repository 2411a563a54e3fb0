/**
 * How a script's error reads in its envelope: what QuickJS threw, made a ScriptFailure with the
 * script's own line (the frames of the script's file; for a tool's error, where the call was
 * made). Pure.
 */
import type { ScriptFailure } from "../types.js";

/** What the engine read off a thrown value (each field only when it was a string). */
export interface ErrorReport {
  name?: string;
  message?: string;
  stack?: string;
  server?: string;
  tool?: string;
  /** A tool's error: the stack where the script made the call. */
  callSite?: string;
  /** A thrown value that is no Error, shown. */
  shown?: string;
}

export function failureOf(report: ErrorReport, filename: string, memoryBytes: number): ScriptFailure {
  const line = lineOf(report.callSite, filename) ?? lineOf(report.stack, filename);
  const at = line === undefined ? {} : { line };
  if (report.shown !== undefined) return { kind: "thrown", message: report.shown, ...at };
  const name = report.name ?? "Error";
  const message = report.message ?? "";
  if (name === "InternalError" && message === "out of memory") {
    return { kind: "memory", message: `the script ran out of memory (its limit is ${Math.round(memoryBytes / 1024 / 1024)} MB)`, ...at };
  }
  if (message === "stack overflow") return { kind: "memory", message: "the script ran out of stack (a recursion too deep)", ...at };
  if (name === "ToolError" && report.server !== undefined && report.tool !== undefined) {
    // Server and tool have fields of their own: the message is the tool's, as the upstream gave it.
    const prefix = `${report.server}.${report.tool}: `;
    return { kind: "thrown", message: message.startsWith(prefix) ? message.slice(prefix.length) : message, server: report.server, tool: report.tool, ...at };
  }
  return { kind: "thrown", message: message ? `${name}: ${message}` : name, ...at };
}

/** The line of the first frame in `filename` of a QuickJS stack ("    at f (script.ts:3:5)"). */
export function lineOf(stack: string | undefined, filename: string): number | undefined {
  for (const frame of (stack ?? "").split("\n")) {
    const match = /^\s*at (?:.*? \()?(.*?):(\d+)(?::\d+)?\)?\s*$/.exec(frame);
    if (match && match[1] === filename) return Number(match[2]);
  }
  return undefined;
}

/** A run that made more tool calls than its limit. */
export function callsFailure(maxCalls: number): ScriptFailure {
  return { kind: "calls", message: `the script made more than ${maxCalls} tool calls (its limit)` };
}
