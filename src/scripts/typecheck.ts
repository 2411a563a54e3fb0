/**
 * `--typecheck`: a script checked against the client's declarations (client-declarations.ts)
 * before it runs, by the TypeScript compiler in memory: strict, lib es2022 alone (what the
 * sandbox has: no DOM, no Node), nothing emitted. The script's body is checked as the body of
 * an async arrow function, as the sandbox runs it (top-level `await` and `return`), and every
 * problem is put back at the script's own line and column.
 *
 * `typescript` is big (a few MB of JavaScript): it is imported on the first check only, and the
 * lib files it reads are parsed once per process and kept (they never change).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type TS from "typescript";

export interface TypeProblem {
  /** 1-based, in the script's own numbering. */
  line: number;
  /** 1-based. */
  column: number;
  /** The compiler's message, its chain of reasons on one line. */
  message: string;
  /** The compiler's error number (TS2322 is 2322). */
  code: number;
}

/** A problem as one line for a person: `billing.ts:3:14 message (TS2551)`. */
export function problemLine(filename: string, problem: TypeProblem): string {
  return `${filename}:${problem.line}:${problem.column} ${problem.message} (TS${problem.code})`;
}

/**
 * What the script's text is wrapped in: one line before it, one after, so its line N is line
 * N+1. The function is named nothing: a name would hide a server's global of that name.
 */
const BEFORE = "export default async () => {\n";
const AFTER = "\n};\n";

const ROOT = "/mcpx";
const DECLARATIONS_FILE = `${ROOT}/client.d.ts`;

type TypeScript = typeof TS;

let loaded: Promise<TypeScript> | undefined;
/** Lib files by path, parsed once. */
const libraries = new Map<string, TS.SourceFile | undefined>();
/** The last declarations parsed (a run checks one script against one client). */
let lastDeclarations: { text: string; file: TS.SourceFile } | undefined;

function typescript(): Promise<TypeScript> {
  loaded ??= import("typescript").then((module) => module.default);
  return loaded;
}

export async function typecheckScript(code: string, declarations: string, filename: string): Promise<TypeProblem[]> {
  const ts = await typescript();
  const options: TS.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: true,
    noResolve: true,
  };
  const libDir = dirname(ts.getDefaultLibFilePath(options));
  // Always a .ts file, whatever the script is called: its types are what is checked.
  const scriptFile = `${ROOT}/${filename.replace(/^.*[\\/]/, "").replace(/\.[cm]?[jt]sx?$/, "") || "script"}.ts`;
  const script = ts.createSourceFile(scriptFile, `${BEFORE}${code}${AFTER}`, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  if (lastDeclarations?.text !== declarations)
    lastDeclarations = { text: declarations, file: ts.createSourceFile(DECLARATIONS_FILE, declarations, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS) };
  const own = new Map([
    [scriptFile, script],
    [DECLARATIONS_FILE, lastDeclarations.file],
  ]);
  const library = (path: string): TS.SourceFile | undefined => {
    if (!path.startsWith(`${libDir}/`)) return undefined;
    if (!libraries.has(path)) {
      let text: string | undefined;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        text = undefined;
      }
      libraries.set(path, text === undefined ? undefined : ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, false));
    }
    return libraries.get(path);
  };
  const host: TS.CompilerHost = {
    getSourceFile: (path) => own.get(path) ?? library(path),
    getDefaultLibFileName: () => join(libDir, "lib.es2022.d.ts"),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (path) => path,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (path) => own.has(path) || library(path) !== undefined,
    readFile: (path) => (own.has(path) ? own.get(path)!.text : library(path)?.text),
    directoryExists: (path) => path === ROOT || path === libDir,
    getDirectories: () => [],
  };
  const program = ts.createProgram({ rootNames: [DECLARATIONS_FILE, scriptFile], options, host });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(script),
    ...program.getSemanticDiagnostics(script),
  ];
  const lines = code.split("\n");
  const early = earlyEnd(ts, script, BEFORE.length + code.length);
  if (early === undefined) return diagnostics.map((diagnostic) => problem(ts, diagnostic, script, lines));
  // A stray `}` closed the wrapping function: that is the problem, not what the wrapping's own end then says.
  const stray: TS.Diagnostic = {
    category: ts.DiagnosticCategory.Error,
    code: 1128,
    file: script,
    start: early,
    length: 1,
    messageText: "Unexpected '}': it closes nothing.",
  };
  return [stray, ...diagnostics.filter((diagnostic) => diagnostic.file !== script || (diagnostic.start ?? 0) < BEFORE.length + code.length)]
    .map((diagnostic) => problem(ts, diagnostic, script, lines))
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Where the wrapping function's body ends, when that is inside the script (an unmatched `}`). */
function earlyEnd(ts: TypeScript, script: TS.SourceFile, codeEnd: number): number | undefined {
  const statement = script.statements[0];
  if (!statement || !ts.isExportAssignment(statement)) return undefined;
  const wrapper = statement.expression;
  if (!ts.isArrowFunction(wrapper)) return undefined;
  const close = wrapper.body.end - 1;
  return close < codeEnd && script.text[close] === "}" ? close : undefined;
}

/** A diagnostic at the script's own position: a position in the wrapping is put at the nearest end of the script. */
function problem(ts: TypeScript, diagnostic: TS.Diagnostic, script: TS.SourceFile, lines: readonly string[]): TypeProblem {
  const message = ts
    .flattenDiagnosticMessageText(diagnostic.messageText, "\n")
    .split("\n")
    .map((part) => part.trim())
    .join(" ");
  let line = 1;
  let column = 1;
  if (diagnostic.file === script && diagnostic.start !== undefined) {
    const position = script.getLineAndCharacterOfPosition(diagnostic.start);
    line = position.line;
    column = position.character + 1;
    if (line < 1) {
      line = 1;
      column = 1;
    } else if (line > lines.length) {
      line = lines.length;
      column = lines[line - 1]!.length + 1;
    }
  }
  return { line, column, message, code: diagnostic.code };
}
