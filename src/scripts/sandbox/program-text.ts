/**
 * The text QuickJS runs for a script, and a script's syntax error as its run reports it,
 * whether sucrase (source.ts, in the process starting the run) or QuickJS (engine.ts, in the
 * worker) found it. No sucrase here: the worker imports this.
 */
import type { ScriptFailure } from "../types.js";

/** A syntax error, said plainly where the line is an import or export, which scripts have none of. */
export function syntaxFailure(code: string, message: string, line: number | undefined): ScriptFailure {
  const text = line === undefined ? "" : (code.split("\n")[line - 1] ?? "");
  const moduleWord = /^\s*(import|export)\b/.exec(text)?.[1];
  const said = moduleWord ? `a script cannot ${moduleWord} modules (${message}): it runs in a sandbox where the servers are globals` : message;
  return { kind: "syntax", message: said, ...(line === undefined ? {} : { line }) };
}

/** The script's JavaScript in an async function opened on its first line: `return` and `await` work at the top, line numbers stay the script's. */
export function wrapScript(js: string): string {
  return `(async () => {${js}\n})()`;
}
