#!/usr/bin/env node
// What the discovery commands cost, with the 70 LiveMCPTool servers (527 tools) configured and
// cached: the latency of `mcpx --version`, `ls`, `search`, `types`, `catalog` against
// `node -e 0` measured in the same run (interleaved, median of N), and the tokens (o200k_base,
// discovery/tokens.ts) of what `ls`, `search`, `types` (all 527 tools), `catalog` and
// `mcpx tools` print. The servers are fake upstreams serving the real catalogues
// (test/fixtures/catalogue-server.mjs over loopback HTTP); the data is read from the shared
// tool-search folder ($MCPX_TOOL_SEARCH_DATA, else ../shared/data/tool-search).
//
// With --baseline DIR (another built mcpx checkout, e.g. the commit before a change), each
// command is also measured with that checkout's mcpx, in the same interleaved rounds.
//
//   node bench/discovery.mjs [--runs N] [--json] [--baseline DIR] [--with-extra-ca-certs]
//
// NODE_EXTRA_CA_CERTS is left out of every process measured unless --with-extra-ca-certs
// (bench/options.mjs says why).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEnvironment } from './options.mjs';
import { startCatalogues, toolSearchData } from './tool-search-data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MCPX = path.join(ROOT, 'bin', 'mcpx.js');
const RUNS = numberOption('--runs', 15);
const JSON_OUT = process.argv.includes('--json');
const BASELINE = stringOption('--baseline');

function stringOption(name) {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = process.argv[at + 1];
  if (!value) throw new Error(`${name} needs a value`);
  const bin = path.resolve(value, 'bin', 'mcpx.js');
  if (!existsSync(bin)) throw new Error(`${name}: no ${bin}`);
  return bin;
}

function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a whole number from 1`);
  return value;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function run(args, env) {
  const started = performance.now();
  const stdout = execFileSync(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  return { ms: performance.now() - started, stdout };
}

const data = toolSearchData();
if (!data) throw new Error('the shared tool-search data is not here (set MCPX_TOOL_SEARCH_DATA)');
const { child, urls } = await startCatalogues(data);
const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-discovery-'));
try {
  const config = path.join(dir, 'mcpx.json');
  writeFileSync(config, JSON.stringify({ mcpServers: Object.fromEntries([...urls].map(([name, url]) => [name, { url }])) }));
  // In process (no daemon): the catalogues are read once here, and nothing is left running after.
  const { env, note } = startEnvironment({ MCPX_STATE_DIR: path.join(dir, 'state'), MCPX_NO_DAEMON: '1' });
  const c = ['--config', config];
  run([MCPX, 'refresh', ...c], env);
  child.kill('SIGTERM'); // from here on, no server runs: every answer comes from the cache
  const servers = [...urls.keys()];
  const targets = {
    'node -e 0': ['-e', '0'],
    'mcpx --version': [MCPX, '--version'],
    'mcpx ls': [MCPX, 'ls', ...c],
    'mcpx search': [MCPX, 'search', 'send', 'an', 'email', ...c],
    'mcpx types SERVER': [MCPX, 'types', servers[0], ...c],
    'mcpx catalog --budget 2000': [MCPX, 'catalog', '--budget', '2000', ...c],
  };
  const envOf = {};
  if (BASELINE) {
    // A state directory of its own (a copy): the two builds' summaries and indexes may differ in format.
    const baselineEnv = { ...env, MCPX_STATE_DIR: path.join(dir, 'state-baseline') };
    cpSync(env.MCPX_STATE_DIR, baselineEnv.MCPX_STATE_DIR, { recursive: true });
    for (const [name, args] of Object.entries(targets)) {
      if (args[0] !== MCPX) continue;
      targets[`${name} (baseline)`] = [BASELINE, ...args.slice(1)];
      envOf[`${name} (baseline)`] = baselineEnv;
    }
  }
  // Once each first: the search index and the catalog input are built by their first reader, and that is not what is measured.
  const outputs = Object.fromEntries(Object.entries(targets).map(([name, args]) => [name, run(args, envOf[name] ?? env).stdout]));
  const times = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const [name, args] of Object.entries(targets)) times[name].push(run(args, envOf[name] ?? env).ms);
  }
  const floor = median(times['node -e 0']);
  const latency = Object.fromEntries(
    Object.entries(times).map(([name, list]) => [
      name,
      { medianMs: Math.round(median(list) * 10) / 10, ratio: Math.round((median(list) / floor) * 100) / 100 },
    ]),
  );

  const { countTokens } = await import(path.join(ROOT, 'dist', 'discovery', 'tokens.js'));
  const text = {
    'mcpx ls': outputs['mcpx ls'],
    'mcpx ls --json': run([MCPX, 'ls', '--json', ...c], env).stdout,
    'mcpx search (10 hits)': outputs['mcpx search'],
    'mcpx search --json (10 hits)': run([MCPX, 'search', '--json', 'send', 'an', 'email', ...c], env).stdout,
    'mcpx types (all 527 tools)': run([MCPX, 'types', servers.join(','), ...c], env).stdout,
    'mcpx types SERVER (one server)': outputs['mcpx types SERVER'],
    'mcpx catalog --budget 2000': outputs['mcpx catalog --budget 2000'],
    'mcpx tools': run([MCPX, 'tools', ...c], env).stdout,
    'mcpx tools --json': run([MCPX, 'tools', '--json', ...c], env).stdout,
  };
  const tokens = Object.fromEntries(Object.entries(text).map(([name, output]) => [name, countTokens(output)]));
  const load = loadavg()[0];
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ runs: RUNS, loadAverage: load, ...(note ? { note } : {}), latency, tokens }, null, 2)}\n`);
  } else {
    console.log(`discovery: 70 servers, 527 tools, cached; ${RUNS} interleaved runs each, load average ${load.toFixed(2)}`);
    if (note) console.log(note);
    console.log('\nlatency (median)                                ms   × node -e 0');
    for (const [name, { medianMs, ratio }] of Object.entries(latency))
      console.log(`  ${name.padEnd(41)} ${String(medianMs).padStart(7)}   ${ratio.toFixed(2)}`);
    console.log('\noutput tokens (o200k_base)');
    for (const [name, count] of Object.entries(tokens)) console.log(`  ${name.padEnd(32)} ${String(count).padStart(7)}`);
  }
} finally {
  if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
