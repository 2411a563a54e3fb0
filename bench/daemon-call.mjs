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
// the daemon is stopped at the end. Every process binds 127.0.0.1 only. The warm calls are
// measured once the daemon's record holds the config's stat (cli/daemon-file.ts: until the
// config has been left alone for 3 s, a command hashes it), as it does from then on.
//
// With --baseline DIR (another built mcpx checkout, e.g. the commit before a change), its warm
// call is measured too, in the same rounds, with a daemon and state dir of its own. With
// --instructions N, each warm target, `node -e 0` and `mcpx --version` are also run N times
// (interleaved) under `valgrind --tool=callgrind`, which counts the instructions of every thread
// (not the kernel's): within a few percent from run to run however busy the machine is.
//
//   node bench/daemon-call.mjs [--runs N] [--cold N] [--baseline DIR] [--instructions N] [--json] [--with-extra-ca-certs]
//
// NODE_EXTRA_CA_CERTS is left out of every process measured unless --with-extra-ca-certs
// (bench/options.mjs says why).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const INSTRUCTIONS = process.argv.includes('--instructions') ? numberOption('--instructions', 5) : 0;
const BASELINE = baselineOption();
const TARGET_WARM = 2;

function baselineOption() {
  const at = process.argv.indexOf('--baseline');
  if (at < 0) return undefined;
  const bin = path.resolve(process.argv[at + 1] ?? '', 'bin', 'mcpx.js');
  if (!existsSync(bin)) throw new Error(`--baseline: no ${bin}`);
  return bin;
}

const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-daemon-'));
const config = path.join(dir, 'mcpx.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO, '--stdio'] } } }));
const { env, note } = startEnvironment({ MCPX_STATE_DIR: path.join(dir, 'state'), MCPX_LOG_LEVEL: 'warn' });
delete env.MCPX_NO_DAEMON;
const baselineEnv = { ...env, MCPX_STATE_DIR: path.join(dir, 'state-baseline') };

/** Wall time of one process, start to exit; a run that fails stops the bench. */
function timed(args, expect = 0, withEnv = env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: withEnv, stdio: ['ignore', 'pipe', 'pipe'] });
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
const BASELINE_CALL = BASELINE ? [BASELINE, ...CALL.slice(1)] : undefined;
/** What each target runs: node's arguments and environment. */
const COMMANDS = {
  'node -e 0': [['-e', '0'], env],
  'mcpx --version': [[MCPX, '--version'], env],
  'mcpx call (warm)': [CALL, env],
  ...(BASELINE_CALL ? { 'mcpx call (warm, baseline)': [BASELINE_CALL, baselineEnv] } : {}),
};
const TARGETS = Object.fromEntries(Object.entries(COMMANDS).map(([name, [args, withEnv]]) => [name, () => timed(args, 0, withEnv)]));
const stopDaemon = () => timed([MCPX, 'daemon', 'stop', '--config', config]);
const stopBaseline = () => (BASELINE ? timed([BASELINE, 'daemon', 'stop', '--config', config], 0, baselineEnv) : Promise.resolve());

/** Wait (bounded) until the daemon's record in `stateDir` holds the config's stat. */
async function untilStatRecorded(stateDir) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const name = readdirSync(stateDir).find((entry) => /^daemon-[0-9a-f]{16}\.json$/.test(entry));
    if (name && JSON.parse(readFileSync(path.join(stateDir, name), 'utf8')).configStat) return;
    if (Date.now() > deadline) throw new Error("the daemon did not record the config's stat");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Instructions of one run under callgrind (valgrind's count of every thread's, in millions). */
function instructions(args, withEnv) {
  const out = path.join(dir, 'callgrind.out');
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...args], { env: withEnv, stdio: 'ignore' });
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  if (!totals) throw new Error('callgrind wrote no totals');
  return Number(totals[1]) / 1e6;
}

function hasValgrind() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

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
  await untilStatRecorded(env.MCPX_STATE_DIR);
  if (BASELINE_CALL) await timed(BASELINE_CALL, 0, baselineEnv);
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
  const counted = INSTRUCTIONS > 0 && hasValgrind() ? countInstructions() : undefined;
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ rows, verdict, instructions: counted, loadavg: loadavg(), ...(note ? { note } : {}) }, null, 2)}\n`);
  } else {
    process.stdout.write(
      `mcpx commands against node -e 0 (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')})\n`,
    );
    if (note) process.stdout.write(`${note}\n`);
    for (const row of rows)
      process.stdout.write(`  ${row.name.padEnd(28)} ${String(row.medianMs).padStart(6)} ms  ${row.ofNode.toFixed(2)}x  (${row.runs} runs)\n`);
    process.stdout.write(`${verdict.met ? 'met' : 'MISSED'}: ${verdict.target} (${warm.toFixed(2)}x)\n`);
    if (INSTRUCTIONS > 0 && !counted) process.stdout.write('instructions: valgrind is not installed\n');
    if (counted) {
      process.stdout.write(`instructions (callgrind, ${INSTRUCTIONS} runs each, min and median, millions):\n`);
      for (const row of counted)
        process.stdout.write(
          `  ${row.name.padEnd(28)} ${row.minM.toFixed(1).padStart(7)}  ${row.medianM.toFixed(1).padStart(7)}  ${row.ofNode.toFixed(2)}x (by min)\n`,
        );
    }
  }
} finally {
  await stopDaemon().catch(() => {});
  await stopBaseline().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}

/** Every warm target, `node -e 0` and `--version` under callgrind, interleaved; each against `node -e 0`'s minimum. */
function countInstructions() {
  const counts = Object.fromEntries(Object.keys(COMMANDS).map((name) => [name, []]));
  for (let i = 0; i < INSTRUCTIONS; i++) {
    for (const [name, [args, withEnv]] of Object.entries(COMMANDS)) counts[name].push(instructions(args, withEnv));
  }
  const floor = Math.min(...counts['node -e 0']);
  return Object.entries(counts).map(([name, values]) => ({ name, minM: Math.min(...values), medianM: median(values), ofNode: Math.min(...values) / floor }));
}
