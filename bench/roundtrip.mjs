#!/usr/bin/env node
// What mcpx costs: the round-trip time of a small `tools/call` through mcpx and directly to the
// same upstream (bench/echo-server.mjs), over stdio and over Streamable HTTP, as medians, p95 and
// a ratio; then calls per second with 1, 10 and 100 concurrent HTTP host sessions, through mcpx
// and direct. Wall-clock figures depend on what else the machine is doing, so each phase also
// reports the CPU time mcpx spent per call (from /proc; Linux only), which does not.
// Every process binds 127.0.0.1 only. Run with `npm run bench` (builds first).
//
//   node bench/roundtrip.mjs [--calls N] [--seconds S]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MCPX_BIN = path.join(ROOT, 'bin', 'mcpx.js');
const ECHO = path.join(ROOT, 'bench', 'echo-server.mjs');

const CALLS = numberOption('--calls', 300);
const WARMUP = 50;
const SECONDS = numberOption('--seconds', 3);
const CONCURRENCY = [1, 10, 100];
const START_TIMEOUT_MS = 15_000;

/** Through mcpx the tool is `<server>__<tool>`; the upstream is named "echo". */
const DIRECT_TOOL = 'echo';
const MCPX_TOOL = 'echo__echo';
const ARGS = { text: 'hello' };

function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

// --- processes -------------------------------------------------------------------------------

const cleanups = [];
const tempDir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-'));
cleanups.push(async () => rmSync(tempDir, { recursive: true, force: true }));

/** mcpx's environment: a private state dir, and the default log level (what users run). */
const mcpxEnv = { ...process.env, MCPX_STATE_DIR: path.join(tempDir, 'state') };
delete mcpxEnv.MCPX_LOG_LEVEL;

function writeConfig(name, upstream) {
  const file = path.join(tempDir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ mcpServers: { echo: upstream } }));
  return file;
}

/** Spawn a child and resolve with the first match of `pattern` on the given stream. */
function startChild(args, stream, pattern) {
  const child = spawn(process.execPath, args, { env: mcpxEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = { bytes: 0, lines: 0 };
  child.stderr.on('data', (chunk) => {
    log.bytes += chunk.length;
    log.lines += chunk.toString('utf8').split('\n').length - 1;
  });
  child.stdout.resume();
  cleanups.push(() => stop(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), START_TIMEOUT_MS);
    createInterface({ input: child[stream] }).on('line', (line) => {
      const match = pattern.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: new URL(match[1]), log, pid: child.pid });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** CPU time (user + system) a process has used so far, in ms; undefined where /proc is missing. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

/** Run `work` and say how much CPU time `pid` used meanwhile (ms), where /proc tells. */
async function measureCpu(pid, work) {
  const before = cpuMs(pid);
  const result = await work();
  const after = cpuMs(pid);
  return { result, cpu: before === undefined || after === undefined ? undefined : after - before };
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// --- clients ---------------------------------------------------------------------------------

const CLIENT_INFO = { name: 'mcpx-bench', version: '1.0.0' };

async function stdioClient(args, env) {
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' });
  const log = { bytes: 0, lines: 0 };
  transport.stderr?.on('data', (chunk) => {
    log.bytes += chunk.length;
    log.lines += chunk.toString('utf8').split('\n').length - 1;
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, log, pid: transport.pid };
}

async function httpClient(url) {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** mcpx answers before its upstreams are ready; wait (bounded) until the tool is listed. */
async function waitForTool(client, name) {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const { tools } = await client.listTools();
    if (tools.some((tool) => tool.name === name)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`tool ${name} never appeared`);
}

async function call(client, tool) {
  const result = await client.callTool({ name: tool, arguments: ARGS });
  if (result.isError || result.content?.[0]?.text !== ARGS.text) throw new Error(`bad echo: ${JSON.stringify(result)}`);
}

// --- measurements ----------------------------------------------------------------------------

const BLOCK = 50;

/**
 * Sequential round trips, direct and through mcpx, in alternating blocks after a warm-up, so
 * both see the same conditions on a shared machine. Milliseconds each, sorted; and mcpx's CPU
 * time per call.
 */
async function roundTrips(direct, mcpx) {
  for (let i = 0; i < WARMUP; i++) await call(direct.client, DIRECT_TOOL);
  for (let i = 0; i < WARMUP; i++) await call(mcpx.client, MCPX_TOOL);
  const samples = { direct: [], mcpx: [] };
  let mcpxCpu = 0;
  const block = async (client, tool, into) => {
    for (let i = 0; i < BLOCK; i++) {
      const started = performance.now();
      await call(client, tool);
      into.push(performance.now() - started);
    }
  };
  for (let done = 0; done < CALLS; done += BLOCK) {
    await block(direct.client, DIRECT_TOOL, samples.direct);
    const { cpu } = await measureCpu(mcpx.pid, () => block(mcpx.client, MCPX_TOOL, samples.mcpx));
    mcpxCpu = cpu === undefined || mcpxCpu === undefined ? undefined : mcpxCpu + cpu;
  }
  const sort = (list) => list.sort((a, b) => a - b);
  return { direct: sort(samples.direct), mcpx: sort(samples.mcpx), mcpxCpu: mcpxCpu === undefined ? undefined : mcpxCpu / samples.mcpx.length };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `sessions` HTTP host sessions, each its own SDK client, calling in a loop for SECONDS. */
async function throughput(url, tool, sessions, pid) {
  const clients = await Promise.all(Array.from({ length: sessions }, () => httpClient(url)));
  await Promise.all(clients.map(({ client }) => call(client, tool))); // warm every session
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const { result: counts, cpu } = await measureCpu(pid, () =>
    Promise.all(
      clients.map(async ({ client }) => {
        let count = 0;
        while (performance.now() < end) {
          await call(client, tool);
          count++;
        }
        return count;
      }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const calls = counts.reduce((a, b) => a + b, 0);
  await Promise.all(clients.map(({ close }) => close()));
  return { rate: calls / elapsed, cpu: cpu === undefined ? undefined : cpu / calls };
}

// --- output ----------------------------------------------------------------------------------

const ms = (value) => value.toFixed(3).padStart(8);
const pad = (text, width) => String(text).padEnd(width);

const cpuText = (value) => (value === undefined ? 'n/a' : value.toFixed(2)).padStart(8);

function latencyRow(label, { direct, mcpx, mcpxCpu: cpu }) {
  const [dm, mm] = [quantile(direct, 0.5), quantile(mcpx, 0.5)];
  const [dp, mp] = [quantile(direct, 0.95), quantile(mcpx, 0.95)];
  return `${pad(label, 9)} ${ms(dm)} ${ms(dp)}   ${ms(mm)} ${ms(mp)}   ${(mm / dm).toFixed(2).padStart(8)}x ${(mm - dm).toFixed(3).padStart(8)} ${cpuText(cpu)}`;
}

// --- main ------------------------------------------------------------------------------------

async function main() {
  const wall = performance.now();
  const echoHttp = await startChild([ECHO, '--http'], 'stdout', /^LISTENING (\S+)$/);

  // Round trips over stdio: host -> echo, and host -> mcpx serve -> echo (both stdio).
  const directStdio = await stdioClient([ECHO, '--stdio'], mcpxEnv);
  const stdioConfig = writeConfig('stdio', { command: process.execPath, args: [ECHO, '--stdio'] });
  const viaStdio = await stdioClient([MCPX_BIN, 'serve', '--config', stdioConfig], mcpxEnv);
  await waitForTool(viaStdio.client, MCPX_TOOL);
  const stdioLogBefore = viaStdio.log.lines;
  const stdio = await roundTrips(directStdio, viaStdio);
  const stdioLogLines = viaStdio.log.lines - stdioLogBefore;

  // Round trips over HTTP: host -> echo, and host -> mcpx serve --http -> echo (both HTTP).
  const httpConfig = writeConfig('http', { url: echoHttp.url.href });
  const mcpxHttp = await startChild([MCPX_BIN, 'serve', '--http', '--port', '0', '--config', httpConfig], 'stderr', /serving MCP at (\S+)/);
  const directHttp = await httpClient(echoHttp.url);
  const viaHttp = await httpClient(mcpxHttp.url);
  await waitForTool(viaHttp.client, MCPX_TOOL);
  const httpLogBefore = mcpxHttp.log.lines;
  const http = await roundTrips(directHttp, { ...viaHttp, pid: mcpxHttp.pid });
  const httpLogLines = mcpxHttp.log.lines - httpLogBefore;
  await directHttp.close();
  await viaHttp.close();

  // Throughput: concurrent HTTP host sessions, direct and through mcpx.
  const rates = [];
  for (const sessions of CONCURRENCY) {
    const direct = await throughput(echoHttp.url, DIRECT_TOOL, sessions, echoHttp.pid);
    const mcpx = await throughput(mcpxHttp.url, MCPX_TOOL, sessions, mcpxHttp.pid);
    rates.push({ sessions, direct, mcpx });
  }

  const out = [];
  out.push(
    `mcpx round-trip benchmark: tools/call "echo" (${CALLS} sequential calls each way, in alternating blocks of ${BLOCK}, after ${WARMUP} warm-up; Node ${process.version})`,
  );
  out.push('');
  out.push('            direct (ms)           through mcpx (ms)       ratio     added  mcpx CPU');
  out.push('transport   median      p95        median      p95     mcpx/direct  (ms)  ms/call');
  out.push(latencyRow('stdio', stdio));
  out.push(latencyRow('http', http));
  out.push('');
  out.push(`throughput over HTTP: calls/s, each host session its own SDK client calling in a loop for ${SECONDS} s`);
  out.push('                 calls/s                               CPU ms/call');
  out.push('sessions    direct  through mcpx  mcpx/direct    upstream (direct)  mcpx');
  for (const { sessions, direct, mcpx } of rates) {
    out.push(
      `${String(sessions).padStart(8)}  ${direct.rate.toFixed(0).padStart(8)}  ${mcpx.rate.toFixed(0).padStart(12)}  ${(mcpx.rate / direct.rate).toFixed(2).padStart(10)}x` +
        `  ${cpuText(direct.cpu).padStart(19)}  ${cpuText(mcpx.cpu)}`,
    );
  }
  out.push('');
  out.push(`mcpx log lines during the ${CALLS} measured calls at the default level: stdio ${stdioLogLines}, http ${httpLogLines}`);
  const load = loadavg()[0].toFixed(1);
  out.push(
    `client, mcpx and upstream share this machine's ${availableParallelism()} cores (1-min load average ${load}); total ${((performance.now() - wall) / 1000).toFixed(1)} s`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
