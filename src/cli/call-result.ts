/**
 * How an ended call is printed, whoever followed it: the store (follow-call.ts) or the daemon's
 * answer (daemon-call.ts). Kept apart from following so the daemon's path loads only this.
 */
import type { CallRecord } from "../broker/call-store.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { Exit } from "./exit.js";
import { inertJson, inertLines, inert } from "./inert.js";
import { isRun } from "./run-record.js";
import { type Output, printRun } from "./run-result.js";

export type EndedCall = Pick<CallRecord, "server" | "tool" | "state" | "result" | "error"> & Partial<Pick<CallRecord, "arguments">>;

/** Print how a call ended (its result, or its error on stderr) and return the exit code. */
export function printOutcome(call: EndedCall, json: boolean, out: Output): number {
  // A script run (`mcpx exec`, `mcpx run`): its result is the run's envelope.
  if (isRun(call)) return printRun(runEnvelope(call), typeof call.arguments?.filename === "string" ? call.arguments.filename : call.tool, json, out);
  if (call.state === "failed") {
    process.stderr.write(`mcpx: ${inert(call.server)}.${inert(call.tool)}: ${inertLines(call.error ?? "failed", "  ")}\n`);
    return Exit.Error;
  }
  const result = call.result ?? {};
  const terminal = out.isTTY === true;
  out.write(json ? `${inertJson(JSON.stringify(result, null, 2))}\n` : terminal ? inertResult(render(result)) : render(result));
  return result.isError === true ? Exit.Error : Exit.Ok;
}

/** A run's envelope; a run mcpx could not run at all (or stopped before it began) as one that failed. */
function runEnvelope(call: EndedCall): JsonObject {
  if (call.state !== "failed" && call.result) return call.result;
  const message = call.error ?? "failed";
  return { ok: false, output: "", stderr: "", calls: [], error: { kind: /\bstopped\b/.test(message) ? "stopped" : "internal", message } };
}

/**
 * The tool's text on a terminal: inert, lines (and tabs) kept as lines. Piped, it is the
 * tool's text exactly, for whatever reads it.
 */
function inertResult(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .split("\t")
        .map((part) => inertLines(part, ""))
        .join("\t"),
    )
    .join("\n");
}

/** Text content as text; anything else as its JSON, so nothing is hidden. */
export function render(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((block: unknown) =>
    isObject(block) && block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block),
  );
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return `${parts.join("\n")}\n`;
}
