/**
 * A script's source made the program QuickJS runs: TypeScript's types stripped (sucrase keeps
 * every line where it was), then wrapped in an async function, opened on the script's own first
 * line, so `return` and `await` work at the top and every line number QuickJS reports is the
 * script's. Runs in the sandbox's worker.
 */
import { transform } from "sucrase";
import type { ScriptFailure, ScriptSource } from "../types.js";

export type Program = { ok: true; code: string } | { ok: false; failure: ScriptFailure };

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
  return { ok: true, code: `(async () => {${js}\n})()` };
}

/** A syntax error, said plainly where the line is an import or export, which scripts have none of. */
export function syntaxFailure(code: string, message: string, line: number | undefined): ScriptFailure {
  const text = line === undefined ? "" : (code.split("\n")[line - 1] ?? "");
  const moduleWord = /^\s*(import|export)\b/.exec(text)?.[1];
  const said = moduleWord ? `a script cannot ${moduleWord} modules (${message}): it runs in a sandbox where the servers are globals` : message;
  return { kind: "syntax", message: said, ...(line === undefined ? {} : { line }) };
}
