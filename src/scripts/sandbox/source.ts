/**
 * A script's source made the program QuickJS runs: TypeScript's types stripped (sucrase keeps
 * every line where it was), then wrapped in an async function, opened on the script's own first
 * line, so `return` and `await` work at the top and every line number QuickJS reports is the
 * script's. Runs in the process that starts the run (run-script.ts imports it when the first
 * run starts, or when the sandbox is warmed), not in each worker: sucrase is loaded once per
 * process, and a spare worker loads QuickJS alone (about 100 ms less of its load, measured:
 * docs/scripts.md). sucrase only parses and prints the text: nothing of the script runs here.
 */
import { transform } from "sucrase";
import type { ScriptSource } from "../types.js";
import type { Program } from "./messages.js";
import { syntaxFailure, wrapScript } from "./program-text.js";

export function programOf(source: Pick<ScriptSource, "code" | "language">): Program {
  let js = source.code;
  if (source.language === "ts") {
    try {
      js = transform(source.code, { transforms: ["typescript"], disableESTransforms: true }).code;
    } catch (error) {
      const loc = (error as { loc?: { line?: unknown } }).loc;
      const line = typeof loc?.line === "number" ? loc.line : undefined;
      const message = String((error as Error).message ?? error).replace(/\s*\(\d+:\d+\)$/, "");
      return { ok: false, failure: syntaxFailure(source.code, message, line) };
    }
  }
  return { ok: true, code: wrapScript(js) };
}
