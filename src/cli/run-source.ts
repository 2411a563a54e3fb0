/**
 * What `mcpx exec CODE` and `mcpx run FILE` run: the source and how to read it. TypeScript
 * unless the file says JavaScript (`.js`, `.mjs`, `.cjs`); `-` reads the source from stdin.
 */
import { readFileSync } from "node:fs";
import type { ScriptSource } from "../scripts/types.js";
import { CliError, Exit } from "./exit.js";
import { inert } from "./inert.js";

/** What `mcpx exec` names its snippet in errors (`exec.ts:3`). */
export const EXEC_FILENAME = "exec.ts";

export function execSource(code: string, args: readonly string[]): ScriptSource {
  const text = code === "-" ? readStdin() : code;
  if (text.trim() === "") throw new CliError("the script is empty: mcpx exec '<typescript>' (or - to read it from stdin)", Exit.Usage);
  return { code: text, language: "ts", filename: EXEC_FILENAME, args: [...args] };
}

export function fileSource(file: string, args: readonly string[]): ScriptSource {
  const language = languageOf(file);
  let code: string;
  try {
    code = file === "-" ? readStdin() : readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${inert(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, Exit.Usage);
  }
  return { code, language, filename: file === "-" ? "stdin.ts" : file, args: [...args] };
}

function languageOf(file: string): ScriptSource["language"] {
  if (file === "-" || /\.[mc]?tsx?$/.test(file)) return "ts";
  if (/\.[mc]?js$/.test(file)) return "js";
  throw new CliError(`mcpx run takes a TypeScript (.ts) or JavaScript (.js) file, got ${inert(file)}`, Exit.Usage);
}

function readStdin(): string {
  try {
    return readFileSync(0, "utf8");
  } catch (error) {
    throw new CliError(`cannot read the script from stdin: ${(error as Error).message}`, Exit.Usage);
  }
}
