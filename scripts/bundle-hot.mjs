#!/usr/bin/env node
// Bundles the hot path after tsc (`npm run build`), each file written over tsc's:
// - dist/cli/hot.js, which runs `mcpx ls` and `mcpx search`, with the modules of those
//   commands (HOT: hot.js imports them with import()) and everything they import statically,
//   so those commands load one module instead of about fifty (issue 14: `ls` and `search` within
//   1.5x of Node's start; each ES module costs ~1 ms to resolve, read, compile and link);
// - dist/cli/main.js with its own few (version.js, hot-args.js), so `--version` loads three
//   modules, and commands commander runs never parse the hot bundle.
// Everything else stays as tsc wrote it:
// - every other import() stays a module of its own, loaded only when it runs (hot.js and
//   program.js from main.js; a never-read server's first read, a host's own config format),
//   unless the bundle already holds that module (then it is the bundle's: one copy per process);
// - packages stay packages (node_modules), but for the small pure ones in PACKAGES_INSIDE
//   (`stemmer`, 4 KB: resolving a package costs more than its code);
// - cli/exit.js stays a module: its CliError is thrown by the unbundled commands and caught by
//   main.js, and `instanceof` needs the one class;
// - version.js is written with the version in it (it reads ../package.json beside itself,
//   which is not beside the bundle).
// The modules each bundle holds are listed beside it in dist/cli/<name>.inputs.json
// (test/cli/hot-path.test.ts checks hot.js's list). Without esbuild installed, dist/ stays as
// tsc wrote it: slower to start, the same behaviour. MCPX_ESBUILD=DIR names an esbuild package
// directory to use instead of node_modules'.
//
//   node scripts/bundle-hot.mjs
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const OUT_DIR = path.join(DIST, 'cli');
const ENTRIES = ['main.js', 'hot.js'].map((name) => path.join(OUT_DIR, name));
/** The hot commands' modules, which hot.js imports when such a line runs. */
const HOT = new Set(['context.js', 'ls.js', 'search.js'].map((name) => path.join(DIST, 'cli', name)));
/** Packages bundled: small, pure, and used by every search. */
const PACKAGES_INSIDE = new Set(['stemmer']);
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

/** A bundle's first line: a file that starts with it is a bundle already (tsc writes it anew on every build). */
const BANNER = '// Bundled by scripts/bundle-hot.mjs (the modules it holds: the .inputs.json beside it).';
if (ENTRIES.some((entry) => readFileSync(entry, 'utf8').startsWith(BANNER))) {
  process.stderr.write('bundle-hot: dist/cli is bundled already; run tsc -p tsconfig.json first (npm run build does both)\n');
  process.exit(0);
}

const esbuild = await loadEsbuild();
if (!esbuild) {
  // No list of a bundle that is not there (tsc has just written these files anew).
  for (const entry of ENTRIES) rmSync(entry.replace(/\.js$/, '.inputs.json'), { force: true });
  process.stderr.write('bundle-hot: esbuild is not installed; dist/ stays unbundled (mcpx ls and search start slower)\n');
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
        if (resolved.errors.length > 0 || !resolved.path.startsWith(DIST)) {
          const bare = !args.path.startsWith('.') && !path.isAbsolute(args.path) && !args.path.startsWith('node:');
          return bare && !PACKAGES_INSIDE.has(args.path) ? { path: args.path, external: true } : resolved;
        }
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

const options = (entry, plugin) => ({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  metafile: true,
  banner: { js: BANNER },
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

for (const entry of ENTRIES) {
  // First pass: which modules static imports bring in (every dynamic one but the hot commands' kept out).
  const first = await esbuild.build({ ...options(entry, hotPath(undefined)), outfile: `${entry}.bundle` });
  const statically = new Set(Object.keys(first.metafile.inputs).map((input) => path.resolve(ROOT, input)));
  const result = await esbuild.build({ ...options(entry, hotPath(statically)), outfile: entry, allowOverwrite: true });
  const [output] = result.outputFiles;
  const inputs = Object.keys(result.metafile.inputs).map(listed).sort();
  writeFileSync(entry, output.contents);
  const name = path.basename(entry, '.js');
  writeFileSync(path.join(OUT_DIR, `${name}.inputs.json`), `${JSON.stringify(inputs, null, 2)}\n`);
  process.stderr.write(`bundle-hot: dist/cli/${name}.js holds ${inputs.length} modules (${Math.round(output.contents.length / 1024)} KiB)\n`);
}
