#!/usr/bin/env node
// What a command that needs a live server costs with the daemon, against `node -e 0` measured in
// the same run (alternating, so a busy machine slows every target alike):
//
//   node -e 0                    the floor: Node starting and exiting
//   mcpx --version               the command line alone
//   mcpx call (warm)             an echo through the running daemon (target: at most 2x the floor)
//   mcpx call (cold)             the first call: starts the daemon, which starts the upstream
//   mcpx call --no-daemon        the detached runner with a gateway of its own, as before the daemon
//
// The upstream is bench/echo-server.mjs over stdio; the config and state dir are temporary, and
// the daemon is stopped at the end. Every process binds 127.0.0.1 only.
//
//   node bench/daemon-call.mjs [--runs N] [--cold N] [--json] [--with-extra-ca-certs]
//
// NODE_EXTRA_CA_CERTS is left out of every process measured unless --with-extra-ca-certs
// (bench/options.mjs says why).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption, startEnvironment } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MCPX = path.join(ROOT, 'bin', 'mcpx.js');
const ECHO = path.join(ROOT, 'bench', 'echo-server.mjs');
const RUNS = numberOption('--runs', 20);
const COLD = numberOption('--cold', 5);
const TARGET_WARM = 2;

const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-daemon-'));
const config = path.join(dir, 'mcpx.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO, '--stdio'] } } }));
const { env, note } = startEnvironment({ MCPX_STATE_DIR: path.join(dir, 'state'), MCPX_LOG_LEVEL: 'warn' });
delete env.MCPX_NO_DAEMON;

/** Wall time of one process, start to exit; a run that fails stops the bench. */
function timed(args, expect = 0) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== expect) reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`));
      else resolve(ms);
    });
  });
}

const CALL = [MCPX, 'call', 'echo.echo', '{"text":"hello"}', '--config', config];
const TARGETS = {
  'node -e 0': () => timed(['-e', '0']),
  'mcpx --version': () => timed([MCPX, '--version']),
  'mcpx call (warm)': () => timed(CALL),
};
const stopDaemon = () => timed([MCPX, 'daemon', 'stop', '--config', config]);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

try {
  const samples = Object.fromEntries(Object.keys(TARGETS).map((name) => [name, []]));
  samples['mcpx call (cold)'] = [];
  samples['mcpx call --no-daemon'] = [];
  // Cold first: each starts a daemon, stopped again after (its start is what is measured).
  for (let i = 0; i < COLD; i++) {
    samples['mcpx call (cold)'].push(await timed(CALL));
    await stopDaemon();
    samples['mcpx call --no-daemon'].push(await timed([...CALL, '--no-daemon']));
  }
  await timed(CALL); // the daemon, warm from here on
  for (const run of Object.values(TARGETS)) await run(); // warm-up: the file cache
  for (let i = 0; i < RUNS; i++) {
    for (const [name, run] of Object.entries(TARGETS)) samples[name].push(await run());
  }
  const floor = median(samples['node -e 0']);
  const rows = Object.entries(samples).map(([name, values]) => ({
    name,
    runs: values.length,
    medianMs: Math.round(median(values)),
    ofNode: median(values) / floor,
  }));
  const warm = rows.find((row) => row.name === 'mcpx call (warm)').ofNode;
  const verdict = { target: `warm call <= ${TARGET_WARM}x node -e 0`, met: warm <= TARGET_WARM };
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ rows, verdict, loadavg: loadavg(), ...(note ? { note } : {}) }, null, 2)}\n`);
  } else {
    process.stdout.write(
      `mcpx commands against node -e 0 (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')})\n`,
    );
    if (note) process.stdout.write(`${note}\n`);
    for (const row of rows)
      process.stdout.write(`  ${row.name.padEnd(24)} ${String(row.medianMs).padStart(6)} ms  ${row.ofNode.toFixed(2)}x  (${row.runs} runs)\n`);
    process.stdout.write(`${verdict.met ? 'met' : 'MISSED'}: ${verdict.target} (${warm.toFixed(2)}x)\n`);
  }
} finally {
  await stopDaemon().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
