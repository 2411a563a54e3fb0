#!/usr/bin/env node
// Bundles the hot path after tsc (`npm run build`), beside tsc's files:
// - dist/cli/main.cjs: main.js as CommonJS, with its own few modules (version.js, exit.js,
//   hot-args.js, hot-load.js), which bin/mcpx.js requires, so `--version`, `ls`, `search`,
//   `types` and `catalog` start no ES module loader (issue 14: about a fifth of Node's own start);
// - dist/cli/hot-script.js: hot.js with the modules of `ls` and `search` (HOT: hot.js imports
//   them with import()) and everything they import statically, as one CommonJS function
//   expression that cli/hot-load.ts compiles as a script, and dist/cli/hot-script.cache, V8's
//   code cache for it with every function compiled (made here with --no-lazy), so a `search`
//   deserialises bytecode instead of parsing and compiling it (Node 20 has no code cache for
//   modules: hence a script, not a module). The config's readers and checkers (cli/context.js
//   and config/) are left out: a run reads the config kept checked (cli/hot-config.ts), and
//   only a run that must check it again (the file or the build changed) imports them;
// - dist/cli/hot-render-script.js and its cache: the same for `types` and `catalog`
//   (hot-render.js with their modules: the renderings `ls` and `search` never load).
// Everything else stays as tsc wrote it:
// - every other import() stays a module of its own, loaded only when it runs (program.js and
//   hot.js from main.cjs; a never-read server's first read, a host's own config format from the
//   hot script, through the loader's import function, since a script cannot resolve one),
//   unless the bundle already holds that module (then it is the bundle's: one copy per process);
// - packages stay packages (node_modules, required), but for the small pure ones in
//   PACKAGES_INSIDE (`stemmer`, 4 KB: resolving a package costs more than its code);
// - version.js is written with the version in it (it reads ../package.json beside itself,
//   which is not beside the bundle).
// The modules each bundle holds are listed beside it in dist/cli/<name>.inputs.json
// (test/cli/hot-path.test.ts checks hot-script's list). Without esbuild installed, dist/ stays
// as tsc wrote it: slower to start, the same behaviour. MCPX_ESBUILD=DIR names an esbuild
// package directory to use instead of node_modules'.
//
//   node scripts/bundle-hot.mjs
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { loadEsbuild } from './esbuild.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const OUT_DIR = path.join(DIST, 'cli');
/** Each hot script: its entry, and the commands' modules it imports when such a line runs, bundled in (not context.js: see above). */
const SCRIPTS = [
  { name: 'hot-script', entry: 'hot.js', commands: ['ls.js', 'search.js'] },
  { name: 'hot-render-script', entry: 'hot-render.js', commands: ['types.js', 'catalog.js'] },
];
/** Packages bundled: small, pure, and used by every search. */
const PACKAGES_INSIDE = new Set(['stemmer']);
const VERSION_MODULE = path.join(DIST, 'version.js');
/** What this script writes, each under dist/cli/ (removed first, and left removed without esbuild). */
const OUTPUTS = ['main.cjs', 'main.inputs.json', ...SCRIPTS.flatMap(({ name }) => [`${name}.js`, `${name}.inputs.json`, `${name}.cache`])];
/** `import.meta.url` in CommonJS: esbuild replaces it with this name, which the banner defines. */
const MODULE_URL = '__mcpxModuleUrl';
const MODULE_URL_LINE = `var ${MODULE_URL} = require("node:url").pathToFileURL(__filename).href;`;
/** The hot script's function: CommonJS's five parameters, and the import() of a module left out (cli/hot-load.ts). */
const IMPORT = '__mcpxImport';
const SCRIPT_HEAD = `(function (exports, require, module, __filename, __dirname, ${IMPORT}) {`;
/** A bundle's first line. */
const BANNER = '// Bundled by scripts/bundle-hot.mjs (the modules it holds: the .inputs.json beside it).';

for (const output of OUTPUTS) rmSync(path.join(OUT_DIR, output), { force: true });
const esbuild = await loadEsbuild();
if (!esbuild) {
  process.stderr.write('bundle-hot: esbuild is not installed; dist/ stays unbundled (mcpx ls and search start slower)\n');
  process.exit(0);
}

/** An import path from the bundle (in dist/cli/) to a module of dist/. */
const fromBundle = (file) => {
  const relative = path.relative(OUT_DIR, file).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
};

/**
 * The resolution rules above. `hot`: the commands' modules the bundle holds; `statically`: the
 * modules it holds through static imports (from a first pass), undefined in that first pass.
 */
function hotPath(hot, statically) {
  return {
    name: 'hot-path',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (resolved.errors.length > 0 || !resolved.path.startsWith(DIST)) {
          const bare = !args.path.startsWith('.') && !path.isAbsolute(args.path) && !args.path.startsWith('node:');
          return bare && !PACKAGES_INSIDE.has(args.path) ? { path: args.path, external: true } : resolved;
        }
        const separate = args.kind === 'dynamic-import' && !hot.has(resolved.path) && !statically?.has(resolved.path);
        return separate ? { path: fromBundle(resolved.path), external: true } : resolved;
      });
      build.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, (args) => {
        if (args.path !== VERSION_MODULE) return undefined;
        const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
        return { contents: `export const IMPLEMENTATION = { name: "mcpx", version: ${JSON.stringify(version)} };\n`, loader: 'js' };
      });
    },
  };
}

const options = (entry, plugin) => ({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'import.meta.url': MODULE_URL },
  metafile: true,
  write: false,
  plugins: [plugin],
  logLevel: 'warning',
  absWorkingDir: ROOT,
});

/** A module's name in the lists: its path under dist/, or under node_modules/. */
const listed = (input) => {
  const file = path.resolve(ROOT, input).split(path.sep).join('/');
  const packaged = file.lastIndexOf('/node_modules/');
  return packaged >= 0 ? file.slice(packaged + 1) : path.relative(DIST, file).split(path.sep).join('/');
};

/** `entry` bundled as CommonJS, with the modules `hot` (and what they import): its code, the modules it holds, and the import()s it left as they are. */
async function bundle(entry, hot = new Set()) {
  // First pass: which modules static imports bring in (every dynamic one but the hot commands' kept out).
  const first = await esbuild.build({ ...options(entry, hotPath(hot, undefined)), outfile: `${entry}.bundle` });
  const statically = new Set(Object.keys(first.metafile.inputs).map((input) => path.resolve(ROOT, input)));
  const result = await esbuild.build({ ...options(entry, hotPath(hot, statically)), outfile: `${entry}.bundle` });
  const [output] = result.outputFiles;
  const imports = Object.values(result.metafile.outputs).flatMap((out) => out.imports);
  return {
    code: output.text,
    inputs: Object.keys(result.metafile.inputs).map(listed).sort(),
    dynamic: [...new Set(imports.filter((i) => i.kind === 'dynamic-import' && i.external && i.path.startsWith('.')).map((i) => i.path))],
  };
}

function write(name, code, inputs) {
  writeFileSync(path.join(OUT_DIR, name), code);
  const list = name.replace(/\.(c?js)$/, '.inputs.json');
  writeFileSync(path.join(OUT_DIR, list), `${JSON.stringify(inputs, null, 2)}\n`);
  process.stderr.write(`bundle-hot: dist/cli/${name} holds ${inputs.length} modules (${Math.round(code.length / 1024)} KiB)\n`);
}

const main = await bundle(path.join(OUT_DIR, 'main.js'));
write('main.cjs', `${BANNER}\n${MODULE_URL_LINE}\n${main.code}`, main.inputs);

// Each hot script: its import()s of modules left out go through the loader's function, each
// replaced where esbuild wrote it, and none may be left (a script has nothing to resolve one from).
for (const { name, entry, commands } of SCRIPTS) {
  const hot = await bundle(path.join(OUT_DIR, entry), new Set(commands.map((command) => path.join(DIST, 'cli', command))));
  let code = hot.code;
  for (const specifier of hot.dynamic) {
    const call = `import(${JSON.stringify(specifier)})`;
    if (!code.includes(call)) throw new Error(`bundle-hot: esbuild did not write ${call} as expected`);
    code = code.split(call).join(`${IMPORT}(${JSON.stringify(specifier)})`);
  }
  if (/\bimport\(\s*["'`.]/.test(code)) throw new Error(`bundle-hot: ${name} still holds an import() it cannot resolve`);
  const script = `${SCRIPT_HEAD}\n${BANNER}\n${MODULE_URL_LINE}\n${code}\n})`;
  const scriptFile = path.join(OUT_DIR, `${name}.js`);
  write(`${name}.js`, script, hot.inputs);

  // Every function compiled (--no-lazy) before the cache is taken, then V8's default again (the
  // flag is not part of what V8 checks a cache against: cli/hot-load.ts's test shows it is taken).
  setFlagsFromString('--no-lazy');
  const compiled = new Script(script, { filename: scriptFile });
  setFlagsFromString('--lazy');
  const cache = compiled.createCachedData();
  writeFileSync(path.join(OUT_DIR, `${name}.cache`), cache);
  process.stderr.write(`bundle-hot: dist/cli/${name}.cache, ${Math.round(cache.length / 1024)} KiB\n`);
}
