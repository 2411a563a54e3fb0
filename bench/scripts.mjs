#!/usr/bin/env node
// What scripts cost and save (issue 15), in one run:
//
//   1. start-up: `mcpx exec` making one call against a plain `mcpx call` of the same echo,
//      alternated in the same run so a busy machine slows both alike; warm (the daemon up) and
//      cold (each starts the daemon, stopped after). Target: a warm exec <= 1.3x a warm call.
//   2. tokens a host spends on a 3-tool workflow (search the open billing issues, fetch the
//      first two, join each with its author's name) by direct calls (each call's arguments and
//      its result as a host's context holds them) against one script (its code and what it
//      prints), counted with o200k_base (src/discovery/tokens.ts). The upstream is
//      test/fixtures/issues-server.mjs; the direct results are real `mcpx call --json` outputs.
//   3. the sandbox's memory: RSS of this process around runs of scripts/run-script.js (the
//      first run loads the engine; then the growth per run, and a run that allocates up to four
//      times its memory cap, which the cap should end).
//
// Builds nothing: run `npx tsc -p tsconfig.json` first (`npm run bench` does).
//
//   node bench/scripts.mjs [--runs N] [--cold N] [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MCPX = path.join(ROOT, 'bin', 'mcpx.js');
const ECHO = path.join(ROOT, 'bench', 'echo-server.mjs');
const ISSUES = path.join(ROOT, 'test', 'fixtures', 'issues-server.mjs');
const RUNS = numberOption('--runs', 15);
const COLD = numberOption('--cold', 3);
const TARGET = 1.3;
const asJson = process.argv.includes('--json');
const { countTokens } = await import(path.join(ROOT, 'dist', 'discovery', 'tokens.js'));
const { startScript } = await import(path.join(ROOT, 'dist', 'scripts', 'run-script.js'));
const { DEFAULT_SCRIPT_LIMITS } = await import(path.join(ROOT, 'dist', 'scripts', 'types.js'));

const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-scripts-'));
const config = path.join(dir, 'mcpx.json');
writeFileSync(
  config,
  JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO, '--stdio'] }, issues: { command: process.execPath, args: [ISSUES] } } }),
);
const env = { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state'), MCPX_LOG_LEVEL: 'warn' };
delete env.MCPX_NO_DAEMON;

/** One mcpx command to its end: wall time and stdout; a run that fails stops the bench. */
function mcpx(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [MCPX, ...args, '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`mcpx ${args.join(' ')} exited ${code}:\n${stdout}${stderr}`));
      else resolve({ ms, stdout });
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const CALL = ['call', 'echo.echo', '{"text":"hello"}'];
const EXEC = ['exec', 'console.log(textOf(await echo.echo({ text: "hello" })))'];
const stopDaemon = () => mcpx(['daemon', 'stop']).catch(() => {});

async function startup() {
  const samples = { 'mcpx call (cold)': [], 'mcpx exec (cold)': [], 'mcpx call (warm)': [], 'mcpx exec (warm)': [] };
  for (let i = 0; i < COLD; i++) {
    samples['mcpx call (cold)'].push((await mcpx(CALL)).ms);
    await stopDaemon();
    samples['mcpx exec (cold)'].push((await mcpx(EXEC)).ms);
    await stopDaemon();
  }
  await mcpx(CALL); // the daemon, warm from here on
  await mcpx(EXEC);
  for (let i = 0; i < RUNS; i++) {
    samples['mcpx call (warm)'].push((await mcpx(CALL)).ms);
    samples['mcpx exec (warm)'].push((await mcpx(EXEC)).ms);
  }
  const rows = Object.entries(samples).map(([name, values]) => ({ name, runs: values.length, medianMs: Math.round(median(values)) }));
  const of = (name) => rows.find((row) => row.name === name).medianMs;
  const warm = of('mcpx exec (warm)') / of('mcpx call (warm)');
  const cold = of('mcpx exec (cold)') / of('mcpx call (cold)');
  return { rows, warmRatio: warm, coldRatio: cold, verdict: { target: `warm exec <= ${TARGET}x warm call`, met: warm <= TARGET } };
}

/** The workflow's script: what an agent would send as mcpx__exec's code. */
const WORKFLOW = `const { items } = await issues.search_issues({ query: "billing" });
for (const { id } of items.slice(0, 2)) {
  const issue = JSON.parse(textOf(await issues.get_issue({ id })));
  const user = JSON.parse(textOf(await issues.get_user({ login: issue.author })));
  console.log(\`#\${issue.id} \${issue.title} (filed by \${user.name})\`);
}`;

async function tokens() {
  // Direct: the host makes each call and holds each call's arguments and its whole result.
  const held = [];
  const direct = async (target, args) => {
    const { stdout } = await mcpx(['call', target, JSON.stringify(args), '--json']);
    held.push(JSON.stringify({ name: target.replace('.', '__'), arguments: args }), stdout.trim());
    return JSON.parse(stdout);
  };
  const search = await direct('issues.search_issues', { query: 'billing' });
  for (const { id } of search.structuredContent.items.slice(0, 2)) {
    const issue = JSON.parse((await direct('issues.get_issue', { id })).content[0].text);
    await direct('issues.get-user', { login: issue.author });
  }
  const directTokens = countTokens(held.join('\n'));
  // One script: the host sends the code and holds what it printed.
  const { stdout } = await mcpx(['exec', WORKFLOW]);
  const scriptTokens = countTokens(`${JSON.stringify({ name: 'mcpx__exec', arguments: { code: WORKFLOW } })}\n${stdout}`);
  return { directCalls: held.length / 2, directTokens, scriptTokens, ratio: directTokens / scriptTokens, printed: stdout };
}

async function memory() {
  const rss = () => process.memoryUsage().rss;
  const limits = { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 20_000 };
  const caller = async () => ({ content: [{ type: 'text', text: 'x' }] });
  const servers = [{ variable: 'echo', server: 'echo', tools: [{ fn: 'echo', tool: 'echo', structured: false }] }];
  const run = async (code) => await (await startScript({ code, language: 'ts', filename: 'bench.ts', args: [] }, servers, caller, limits)).done;
  global.gc?.();
  const before = rss();
  await run('console.log(textOf(await echo.echo({})))');
  global.gc?.();
  const afterFirst = rss();
  const RUNS_MEMORY = 20;
  for (let i = 0; i < RUNS_MEMORY; i++) await run('const a = []; for (let i = 0; i < 1000; i++) a.push({ i }); console.log(a.length)');
  global.gc?.();
  const afterMany = rss();
  // Strings of 64 KiB up to four times the cap: a cap that holds ends it early; one that does not shows here.
  const pieces = Math.ceil((4 * limits.memoryBytes) / 65536);
  const bomb = await run(`const a = []; for (let i = 0; i < ${pieces}; i++) a.push("x".repeat(65536) + i); console.log(a.length)`);
  global.gc?.();
  const afterBomb = rss();
  const mb = (bytes) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
  return {
    firstRunMb: mb(afterFirst - before),
    perRunMb: mb((afterMany - afterFirst) / RUNS_MEMORY),
    bombEnded: bomb.ok ? `not ended: it kept ${pieces} x 64 KiB` : `${bomb.error.kind}: ${bomb.error.message}`,
    bombGrowthMb: mb(afterBomb - afterMany),
    capMb: mb(limits.memoryBytes),
  };
}

try {
  const started = await startup();
  const workflow = await tokens();
  const sandbox = await memory();
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ startup: started, workflow, sandbox, loadavg: loadavg() }, null, 2)}\n`);
  } else {
    process.stdout.write(
      `scripts (load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')})\n`,
    );
    for (const row of started.rows) process.stdout.write(`  ${row.name.padEnd(20)} ${String(row.medianMs).padStart(6)} ms  (${row.runs} runs)\n`);
    process.stdout.write(`  exec / call: warm ${started.warmRatio.toFixed(2)}x, cold ${started.coldRatio.toFixed(2)}x\n`);
    process.stdout.write(`${started.verdict.met ? 'met' : 'MISSED'}: ${started.verdict.target} (${started.warmRatio.toFixed(2)}x)\n`);
    process.stdout.write(
      `3-tool workflow: ${workflow.directCalls} direct calls hold ${workflow.directTokens} tokens; one script ${workflow.scriptTokens} (${workflow.ratio.toFixed(1)}x fewer)\n`,
    );
    process.stdout.write(
      `sandbox RSS: first run +${sandbox.firstRunMb} MB (the engine), then +${sandbox.perRunMb} MB per run; a memory bomb (${sandbox.bombEnded}) +${sandbox.bombGrowthMb} MB, cap ${sandbox.capMb} MB\n`,
    );
  }
} finally {
  await stopDaemon();
  rmSync(dir, { recursive: true, force: true });
}
