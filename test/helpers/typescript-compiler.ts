/**
 * Type-checks in-memory TypeScript with the real compiler (`typescript` package API, strict),
 * without a child process: the lib files are parsed once per test process and shared.
 */
import ts from "typescript";

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: [],
  noUncheckedIndexedAccess: true,
};

const libraries = new Map<string, ts.SourceFile | undefined>();

export interface Compiled {
  /** Every diagnostic, as `file(line,col): message`. */
  errors: string[];
  checker: ts.TypeChecker;
  file(name: string): ts.SourceFile;
}

/**
 * Compiles `files` (name -> source; they may import each other as `./name`). `options` replace
 * the defaults (e.g. `lib`); `roots` are real files to compile beside them (e.g. @types/node).
 */
export function compile(files: Record<string, string>, options: ts.CompilerOptions = {}, roots: string[] = []): Compiled {
  const settings = { ...OPTIONS, ...options };
  const base = ts.createCompilerHost(settings, true);
  const own = new Map(Object.entries(files).map(([name, text]) => [`/virtual/${name}`, text]));
  const host: ts.CompilerHost = {
    ...base,
    fileExists: (name) => own.has(name) || base.fileExists(name),
    directoryExists: (name) => name === "/virtual" || (base.directoryExists?.(name) ?? false),
    realpath: (name) => (own.has(name) ? name : (base.realpath?.(name) ?? name)),
    readFile: (name) => own.get(name) ?? base.readFile(name),
    getSourceFile: (name, version) => {
      const text = own.get(name);
      if (text !== undefined) return ts.createSourceFile(name, text, version, true);
      if (!libraries.has(name)) libraries.set(name, base.getSourceFile(name, version));
      return libraries.get(name);
    },
    getCurrentDirectory: () => "/virtual",
    writeFile: () => {},
  };
  const program = ts.createProgram([...own.keys(), ...roots], settings, host);
  const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName.replace("/virtual/", "")}(${line + 1},${character + 1}): ${message}`;
  });
  return { errors, checker: program.getTypeChecker(), file: (name) => program.getSourceFile(`/virtual/${name}`)! };
}
