/**
 * Runs a hot line (`mcpx ls`, `mcpx search`). After a build with esbuild, from
 * `dist/cli/hot-script.js`: hot.ts and the modules those commands load, bundled as one CommonJS
 * function (scripts/bundle-hot.mjs), compiled with the V8 code cache the build wrote beside it
 * (`hot-script.cache`), so the process deserialises bytecode instead of parsing and compiling
 * 160 KiB of JavaScript: about a third of what a `search` cost beyond Node's own start (issue
 * 14). Node 20 has no code cache for modules, hence a script. A cache V8 refuses (another Node,
 * other V8 flags) is only slower. Without the bundle (the tests' sources, a build without
 * esbuild), hot.ts as it is.
 */
import { isAscii } from "node:buffer";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";
import type { HotLine } from "./hot-args.js";

/** hot.ts or hot-render.ts, each taking the lines of its commands (runHotLine sends each its own). */
type HotModule = { runHot(line: HotLine): Promise<void> };

/**
 * What the bundled function takes: CommonJS's five, and the `import()` of a module of dist/ that
 * stayed a module of its own (a script has no module to resolve it from, so it is done here).
 */
type HotFactory = (
  exports: object,
  require: NodeRequire,
  module: { exports: object },
  filename: string,
  dirname: string,
  importModule: (specifier: string) => Promise<unknown>,
) => void;

export async function runHotLine(line: HotLine): Promise<void> {
  // `types` and `catalog` have a script of their own (hot-render.ts), with the renderings `ls` and `search` never load
  const render = line.command === "types" || line.command === "catalog";
  const name = render ? "./hot-render-script.js" : "./hot-script.js";
  const script = import.meta.url.endsWith(".cjs") ? fileURLToPath(new URL(name, import.meta.url)) : undefined;
  const hot: HotModule = script && existsSync(script) ? loadHotScript(script).exports : render ? await import("./hot-render.js") : await import("./hot.js");
  await hot.runHot(line);
}

/** Compiles and runs the bundled hot script `file` (with its code cache when V8 takes it). */
export function loadHotScript(file: string): { exports: HotModule; cacheRejected: boolean | undefined } {
  const cache = file.replace(/\.js$/, ".cache");
  const cachedData = existsSync(cache) ? readFileSync(cache) : undefined;
  const script = new Script(sourceText(readFileSync(file)), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as HotModule };
  const url = pathToFileURL(file);
  const factory = script.runInThisContext() as HotFactory;
  factory(module.exports, createRequire(file), module, file, dirname(file), (specifier) => import(new URL(specifier, url).href));
  return { exports: module.exports, cacheRejected: cachedData ? script.cachedDataRejected : undefined };
}

/** The script's text: copied as it is when it is ASCII (the build writes it so), which costs a quarter of decoding it as UTF-8. */
function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}
