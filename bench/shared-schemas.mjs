#!/usr/bin/env node
// The schema cache shared through Redis (docs/deploying.md "The schema cache on several
// instances"): with the 70 LiveMCPTool servers configured (one loopback process serving their
// real catalogues), `mcpx ls` in a state directory that never read them,
//
//   - on a Redis store that has none of them: every server read, and put in Redis;
//   - on the same Redis, in another state directory: every entry fetched from Redis, no server read;
//   - the next `ls` there: the files alone (the hot path);
//   - with no store: every server read.
//
// Each a fresh state directory per run, --runs times; the median and the range.
//
//   npm run build && node bench/shared-schemas.mjs [--runs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption, startEnvironment } from './options.mjs';
import { installed, quantile, startRedis } from './redis.mjs';
import { startCatalogues, toolSearchData } from './tool-search-data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = numberOption('--runs', 3);
const DATA = toolSearchData();
if (!DATA) throw new Error('the tool-search data (shared/data/tool-search) is not there');
if (!installed('redis-server')) throw new Error('redis-server is not installed');

const work = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-shared-'));
const redis = await startRedis();
const port = new URL(redis.url).port;
const catalogues = await startCatalogues(DATA);
const { env, note } = startEnvironment({ MCPX_NO_DAEMON: '1', MCPX_LOG_LEVEL: 'error' });

let made = 0;
/** A config (in `work`, so every one has the same servers' definitions) with a state directory of its own. */
function instance(store) {
  const name = `c${++made}`;
  const file = path.join(work, `${name}.json`);
  const servers = Object.fromEntries([...catalogues.urls].map(([server, url]) => [server, { url }]));
  writeFileSync(file, JSON.stringify({ mcpServers: servers, ...(store ? { store: { url: store } } : {}) }));
  return { file, state: path.join(work, `${name}-state`) };
}

/** Milliseconds one `mcpx ls` takes, and how many servers it said it read. */
function ls(config) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'mcpx.js'), 'ls', '--config', config.file], {
    env: { ...env, MCPX_STATE_DIR: config.state },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`mcpx ls failed: ${run.stderr}`);
  return { ms, read: (run.stderr.match(/was never read; reading/g) ?? []).length };
}

const rows = { read: [], fetched: [], hot: [], alone: [] };
try {
  for (let run = 0; run < RUNS; run++) {
    const store = `${redis.url}/?prefix=run${run}:`;
    const first = ls(instance(store));
    const other = instance(store);
    const fetched = ls(other);
    const hot = ls(other);
    const alone = ls(instance());
    if (first.read !== 70 || fetched.read !== 0 || hot.read !== 0 || alone.read !== 70)
      throw new Error(`servers read: ${first.read}, ${fetched.read}, ${hot.read}, ${alone.read} (expected 70, 0, 0, 70)`);
    rows.read.push(first.ms);
    rows.fetched.push(fetched.ms);
    rows.hot.push(hot.ms);
    rows.alone.push(alone.ms);
  }
  const bytes = execFileSync(
    'redis-cli',
    ['-p', String(port), 'eval', "local n=0 for _,k in ipairs(redis.call('keys','run0:schema:*')) do n=n+redis.call('strlen',k) end return n", '0'],
    {
      encoding: 'utf8',
    },
  ).trim();
  const show = (values) => `${quantile(values, 0.5).toFixed(0)} ms (${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)})`;
  console.log(`machine: ${cpus().length} cores; 70 LiveMCPTool servers over loopback HTTP; ${RUNS} runs, median (range)${note ? `; ${note}` : ''}`);
  console.log(`mcpx ls, never read, Redis store empty (read 70, put them in Redis): ${show(rows.read)}`);
  console.log(`mcpx ls, never read, entries in Redis (fetched, none read):          ${show(rows.fetched)}`);
  console.log(`mcpx ls again in that state directory (the files alone):             ${show(rows.hot)}`);
  console.log(`mcpx ls, never read, no store (read 70):                             ${show(rows.alone)}`);
  console.log(`the 70 entries in Redis: ${(Number(bytes) / 1024).toFixed(0)} KiB`);
} finally {
  catalogues.stop();
  redis.stop();
}
