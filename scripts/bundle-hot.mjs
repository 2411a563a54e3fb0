#!/usr/bin/env node
// Bundles the hot path into dist/cli/main.js after tsc (`npm run build`): main.js, the modules
// of `mcpx ls` and `mcpx search` (HOT: main.js imports them with import()) and everything they
// import statically become one file, so those commands load one module instead of about forty (issue
// 14: `ls` and `search` within 1.5x of Node's start; each ES module costs ~1 ms to resolve,
// read, compile and link). Everything else stays as tsc wrote it:
// - every other import() stays a module of its own, loaded only when it runs (a never-read
//   server's first read, a host's own config format, commander and the other commands), unless
//   the bundle already holds that module (then it is the bundle's: one copy per process);
// - packages stay packages (node_modules);
// - cli/exit.js stays a module: its CliError is thrown by the unbundled commands and caught by
//   main.js, and `instanceof` needs the one class;
// - version.js is written with the version in it (it reads ../package.json beside itself,
//   which is not beside the bundle).
// The modules bundled are listed in dist/cli/main.inputs.json (test/cli/hot-path.test.ts checks
// the list). Without esbuild installed, dist/ stays as tsc wrote it: slower to start, the same
// behaviour. MCPX_ESBUILD=DIR names an esbuild package directory to use instead of node_modules'.
//
//   node scripts/bundle-hot.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const ENTRY = path.join(DIST, 'cli', 'main.js');
const OUT_DIR = path.dirname(ENTRY);
/** The hot commands' modules, which main.js imports when such a line runs. */
const HOT = new Set(['context.js', 'ls.js', 'search.js'].map((name) => path.join(DIST, 'cli', name)));
/** Modules kept out of the bundle whatever imports them (see above). */
const SEPARATE = new Set([path.join(DIST, 'cli', 'exit.js')]);
const VERSION_MODULE = path.join(DIST, 'version.js');

async function loadEsbuild() {
  const from = process.env.MCPX_ESBUILD;
  try {
    if (from) return await import(pathToFileURL(createRequire(path.join(path.resolve(from), 'package.json')).resolve('esbuild')).href);
    return await import('esbuild');
  } catch {
    return undefined;
  }
}

const esbuild = await loadEsbuild();
if (!esbuild) {
  process.stderr.write('bundle-hot: esbuild is not installed; dist/cli/main.js stays unbundled (mcpx ls and search start slower)\n');
  process.exit(0);
}

/** An import path from the bundle (in dist/cli/) to a module of dist/. */
const fromBundle = (file) => {
  const relative = path.relative(OUT_DIR, file).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
};

/**
 * The resolution rules above. `statically` is the set of modules the bundle holds through static
 * imports (from a first pass); undefined in that first pass.
 */
function hotPath(statically) {
  return {
    name: 'hot-path',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (resolved.errors.length > 0 || resolved.external || !resolved.path.startsWith(DIST)) return resolved;
        const separate = SEPARATE.has(resolved.path) || (args.kind === 'dynamic-import' && !HOT.has(resolved.path) && !statically?.has(resolved.path));
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

const options = (plugin, write) => ({
  entryPoints: [ENTRY],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  metafile: true,
  write,
  plugins: [plugin],
  logLevel: 'warning',
  absWorkingDir: ROOT,
});

// First pass: which modules static imports bring in (every dynamic one but the hot commands' kept out).
const first = await esbuild.build({ ...options(hotPath(undefined), false), outfile: path.join(OUT_DIR, 'main.bundle.js') });
const statically = new Set(Object.keys(first.metafile.inputs).map((input) => path.resolve(ROOT, input)));
const result = await esbuild.build({ ...options(hotPath(statically), false), outfile: ENTRY, allowOverwrite: true });
const [output] = result.outputFiles;
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => path.relative(DIST, path.resolve(ROOT, input)).split(path.sep).join('/'))
  .sort();
writeFileSync(ENTRY, output.contents);
writeFileSync(path.join(OUT_DIR, 'main.inputs.json'), `${JSON.stringify(inputs, null, 2)}\n`);
process.stderr.write(`bundle-hot: dist/cli/main.js holds ${inputs.length} modules (${Math.round(output.contents.length / 1024)} KiB)\n`);
