#!/usr/bin/env node
// Bundles every command but the hot ones after tsc (`npm run build`, after bundle-hot.mjs):
// dist/cli/program.bundle.js is program.js with the modules of dist/ it reaches, as ES modules
// split by esbuild, so each import() stays a chunk of its own (cold-*.js) loaded only when it
// runs. Node then resolves and reads a few dozen files instead of some three hundred: a
// `serve`, `call` or `elicit` starts in about half the CPU (measured: importing serve.js 365 ms
// of CPU as tsc wrote it, 180 ms bundled). main.js imports it (cli/main.ts) unless tsc has
// written program.js since.
//
// The bundle lives in dist/cli/, beside the modules whose import.meta.url paths it keeps
// (`../../bin/mcpx.js`); the worker threads' modules are bundled as dist/cli/index-worker.js
// and dist/cli/worker.js, where `new URL("./…-worker.js", import.meta.url)` finds them.
// dist/cli/call-warm.cjs is daemon-call.js with the modules it imports statically, as one
// CommonJS file: main.cjs requires it for a plain `mcpx call` line (cli/call-line.ts), so a warm
// call starts no ES module loader and reads one file instead of commander and some twenty chunks.
// dist/cli/exec-warm.cjs is run-daemon.js the same way, for a plain `mcpx exec` line
// (cli/exec-line.ts). Their import()s (the cold start, a call that waits on a question) stay
// tsc's modules.
//
// Packages stay packages. version.js is written with the version in it (it reads
// ../package.json, which is not beside the bundle). Without esbuild, nothing is written and
// main.js imports program.js as tsc wrote it.
//
//   node scripts/bundle-cold.mjs
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEsbuild } from './esbuild.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const OUT_DIR = path.join(DIST, 'cli');
const VERSION_MODULE = path.join(DIST, 'version.js');
const ENTRIES = {
  'program.bundle': path.join(OUT_DIR, 'program.js'),
  'index-worker': path.join(DIST, 'discovery', 'index-worker.js'),
  worker: path.join(DIST, 'scripts', 'sandbox', 'worker.js'),
};
const CHUNK_PREFIX = 'cold-';
/** The warm lines' CommonJS bundles, dist/cli/NAME.cjs, by the module each bundles. */
const WARM = { 'call-warm': 'daemon-call.js', 'exec-warm': 'run-daemon.js' };
/** `import.meta.url` in CommonJS: esbuild replaces it with this name, which the banner defines. */
const MODULE_URL = '__mcpxModuleUrl';

for (const name of readdirSync(OUT_DIR)) {
  const ours =
    name.startsWith(CHUNK_PREFIX) ||
    ['program.bundle.js', 'program.bundle.inputs.json', 'index-worker.js', 'worker.js'].includes(name) ||
    Object.keys(WARM).some((warm) => [`${warm}.cjs`, `${warm}.inputs.json`].includes(name));
  if (ours) rmSync(path.join(OUT_DIR, name), { force: true });
}
const esbuild = await loadEsbuild();
if (!esbuild) {
  process.stderr.write('bundle-cold: esbuild is not installed; dist/ stays unbundled (commands start slower)\n');
  process.exit(0);
}

const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    // A bare specifier is a package (or node:): required from node_modules at run time, as tsc's modules do.
    build.onResolve({ filter: /^[^./]/ }, (args) => (path.isAbsolute(args.path) ? undefined : { path: args.path, external: true }));
    build.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, (args) => {
      if (args.path !== VERSION_MODULE) return undefined;
      const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
      return { contents: `export const IMPLEMENTATION = { name: "mcpx", version: ${JSON.stringify(version)} };\n`, loader: 'js' };
    });
  },
};

const result = await esbuild.build({
  entryPoints: ENTRIES,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: OUT_DIR,
  chunkNames: `${CHUNK_PREFIX}[name]-[hash]`,
  metafile: true,
  plugins: [packagesOutside],
  logLevel: 'warning',
  absWorkingDir: ROOT,
  banner: { js: '// Bundled by scripts/bundle-cold.mjs.' },
});
/** The modules a build holds, by their paths under dist/. */
const inputsOf = (metafile) =>
  Object.keys(metafile.inputs)
    .map((input) => path.relative(DIST, path.resolve(ROOT, input)).split(path.sep).join('/'))
    .sort();
const inputs = inputsOf(result.metafile);
writeFileSync(path.join(OUT_DIR, 'program.bundle.inputs.json'), `${JSON.stringify(inputs, null, 2)}\n`);
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
process.stderr.write(`bundle-cold: dist/cli/program.bundle.js and ${outputs.length - 1} more files hold ${inputs.length} modules\n`);

/** A module of dist/ that an import() of the warm bundle names stays tsc's, found from dist/cli/ where the bundle is. */
const importsOutside = {
  name: 'imports-outside',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const relative = path.relative(OUT_DIR, path.resolve(args.resolveDir, args.path)).split(path.sep).join('/');
      return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
    });
  },
};
for (const [name, entry] of Object.entries(WARM)) {
  const warm = await esbuild.build({
    entryPoints: [path.join(OUT_DIR, entry)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: path.join(OUT_DIR, `${name}.cjs`),
    define: { 'import.meta.url': MODULE_URL },
    metafile: true,
    plugins: [importsOutside, packagesOutside],
    logLevel: 'warning',
    absWorkingDir: ROOT,
    banner: { js: `// Bundled by scripts/bundle-cold.mjs.\nvar ${MODULE_URL} = require("node:url").pathToFileURL(__filename).href;` },
  });
  const warmInputs = inputsOf(warm.metafile);
  writeFileSync(path.join(OUT_DIR, `${name}.inputs.json`), `${JSON.stringify(warmInputs, null, 2)}\n`);
  process.stderr.write(`bundle-cold: dist/cli/${name}.cjs holds ${warmInputs.length} modules\n`);
}
