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

for (const name of readdirSync(OUT_DIR)) {
  const ours = name.startsWith(CHUNK_PREFIX) || ['program.bundle.js', 'program.bundle.inputs.json', 'index-worker.js', 'worker.js'].includes(name);
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
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => path.relative(DIST, path.resolve(ROOT, input)).split(path.sep).join('/'))
  .sort();
writeFileSync(path.join(OUT_DIR, 'program.bundle.inputs.json'), `${JSON.stringify(inputs, null, 2)}\n`);
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
process.stderr.write(`bundle-cold: dist/cli/program.bundle.js and ${outputs.length - 1} more files hold ${inputs.length} modules\n`);
