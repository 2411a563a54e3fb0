/**
 * How an ended script run is printed (`mcpx exec`, `mcpx run`, `mcpx result RUNID`): what the
 * script printed to stdout, its errors and warnings to stderr, the value it returned after its
 * output; exit 0 when it ended well, 1 when not (the failure on stderr with its kind, line and
 * tool). `--json`: the one envelope. Never the source.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { ScriptEnvelope, ScriptFailure } from "../scripts/types.js";
import { Exit } from "./exit.js";
import { inert, inertJson, inertLines } from "./inert.js";

/** Where a result is printed: stdout, or what writes to its file descriptor (daemon-send.ts). */
export interface Output {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export function printRun(result: JsonObject, filename: string, json: boolean, out: Output): number {
  const envelope = result as unknown as ScriptEnvelope;
  if (json) {
    const { ok, output, value, error, calls, stderr } = envelope;
    const document = { ok, output, value: value ?? null, error: error ?? null, calls, stderr };
    out.write(`${inertJson(JSON.stringify(document, null, 2))}\n`);
    return envelope.ok ? Exit.Ok : Exit.Error;
  }
  const terminal = out.isTTY === true;
  const shown = (text: string): string =>
    terminal
      ? text
          .split("\n")
          .map((line) => inertLines(line, ""))
          .join("\n")
      : text;
  if (envelope.output) out.write(shown(envelope.output));
  if (envelope.stderr) process.stderr.write(process.stderr.isTTY ? envelope.stderr.split("\n").map(inert).join("\n") : envelope.stderr);
  if (envelope.value !== undefined) {
    const text = typeof envelope.value === "string" ? envelope.value : JSON.stringify(envelope.value, null, 2);
    out.write(`${shown(text)}\n`);
  }
  if (envelope.ok) return Exit.Ok;
  process.stderr.write(`mcpx: ${failureLine(filename, envelope.error)}\n`);
  return Exit.Error;
}

const KIND_WORDS: Record<ScriptFailure["kind"], string> = {
  syntax: "syntax error",
  thrown: "uncaught error",
  timeout: "out of time (scripts.timeoutSeconds)",
  memory: "out of memory (scripts.memoryMb)",
  calls: "too many tool calls (scripts.maxCalls)",
  stopped: "stopped",
  internal: "mcpx failed to run it",
};

/** `exec.ts:3: tool error from github.search_issues: not found`. */
export function failureLine(filename: string, failure: ScriptFailure | undefined): string {
  if (!failure) return `${inert(filename)}: the script failed`;
  const where = `${inert(filename)}${failure.line !== undefined ? `:${failure.line}` : ""}`;
  const tool = failure.server !== undefined && failure.tool !== undefined ? `${failure.server}.${failure.tool}` : undefined;
  const kind = tool && failure.kind === "thrown" ? `tool error from ${inert(tool)}` : KIND_WORDS[failure.kind];
  // A ToolError's message starts with "server.tool: " already.
  const message = tool && failure.message.startsWith(`${tool}: `) ? failure.message.slice(tool.length + 2) : failure.message;
  return `${where}: ${kind}: ${inertLines(message, "  ")}`;
}
