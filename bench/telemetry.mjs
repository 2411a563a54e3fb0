#!/usr/bin/env node
// What OpenTelemetry costs per call: the same `mcpx serve` (stdio, one host) calling the same
// stdio upstream (bench/echo-server.mjs), with telemetry off (no OTEL_* variable: the SDK not
// even loaded), with metrics alone (the instruments `/metrics` of serve --http reads, here
// exported over OTLP) and with traces and metrics (a span per host request and per upstream
// request), exported over OTLP/HTTP to a sink on 127.0.0.1 that answers 200, in the same run,
// rotating blocks of calls after a warm-up, so the ratios hold on a busy machine. The host is
// raw newline-delimited JSON on the pipes.
//
//   node bench/telemetry.mjs [--calls N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALLS = numberOption('--calls', 3000);
const WARMUP = 200;
const BLOCK = 50;

const tempDir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-otel-'));
const config = path.join(tempDir, 'mcpx.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [path.join(ROOT, 'bench', 'echo-server.mjs'), '--stdio'] } } }));

/** The OTLP sink: takes every export, answers 200, counts what came. */
const exported = { requests: 0, bytes: 0 };
const sink = createServer((request, response) => {
  request.on('data', (chunk) => (exported.bytes += chunk.length));
  request.on('end', () => {
    exported.requests++;
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${sink.address().port}`;

/** One `mcpx serve` with a raw host on its pipes: `call()` resolves with the round trip in ms. */
async function startServe(label, extraEnv) {
  const env = { ...process.env, MCPX_STATE_DIR: path.join(tempDir, label), ...extraEnv };
  delete env.MCPX_LOG_LEVEL;
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_') && !(name in extraEnv)) delete env[name];
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'mcpx.js'), 'serve', '--config', config], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const frame = JSON.parse(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      pending.get(frame.id)?.(frame);
      pending.delete(frame.id);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const mine = ++id;
      const timer = setTimeout(() => reject(new Error(`${label}: no answer to ${method}`)), 20_000);
      pending.set(mine, (frame) => {
        clearTimeout(timer);
        if (frame.error) reject(new Error(`${label}: ${frame.error.message}`));
        else resolve(frame.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  for (let tries = 0; !(await request('tools/list', {})).tools.length; tries++) {
    if (tries > 100) throw new Error(`${label}: the upstream never came up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    label,
    samples: [],
    /** CPU seconds mcpx's process has used (user + system; Linux's /proc), or undefined elsewhere. */
    cpu() {
      const file = `/proc/${child.pid}/stat`;
      if (!existsSync(file)) return undefined;
      const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    async call() {
      const started = performance.now();
      await request('tools/call', { name: 'echo__echo', arguments: { text: 'hello' } });
      return performance.now() - started;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (values) => quantile([...values].sort((a, b) => a - b), 0.5);
const micro = (ms) => `${(ms * 1000).toFixed(0)} µs`;

const off = await startServe('off', {});
const metrics = await startServe('metrics', { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${endpoint}/v1/metrics`, OTEL_METRIC_EXPORT_INTERVAL: '1000' });
const on = await startServe('on', {
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '500',
  OTEL_METRIC_EXPORT_INTERVAL: '1000',
});
const all = [off, metrics, on];
try {
  for (const serve of all) for (let i = 0; i < WARMUP; i++) await serve.call();
  const cpuBefore = all.map((serve) => serve.cpu());
  for (let done = 0, round = 0; done < CALLS; done += BLOCK, round++) {
    // Each block a different one first: none always runs right after another's.
    for (let k = 0; k < all.length; k++) {
      const serve = all[(round + k) % all.length];
      for (let i = 0; i < BLOCK; i++) serve.samples.push(await serve.call());
    }
  }
  const cpuPerCall = all.map((serve, at) => {
    const [before, after] = [cpuBefore[at], serve.cpu()];
    return before === undefined || after === undefined ? undefined : (after - before) / serve.samples.length;
  });
  const offMedian = median(off.samples);
  const p90 = (serve) => quantile([...serve.samples].sort((a, b) => a - b), 0.9);
  console.log(`telemetry per call, ${CALLS} calls each, rotating blocks of ${BLOCK} (load average ${loadavg()[0].toFixed(1)})`);
  for (const [serve, words] of [
    [off, 'off (no OTEL_*)         '],
    [metrics, 'metrics alone           '],
    [on, 'traces + metrics        '],
  ]) {
    const at = median(serve.samples);
    const versus = serve === off ? '' : `   ${(at / offMedian).toFixed(3)} x off (+${micro(at - offMedian)} per call)`;
    const cpu = cpuPerCall[all.indexOf(serve)];
    const cpuOff = cpuPerCall[0];
    const cpuWords = cpu === undefined ? '' : `   mcpx CPU ${micro(cpu * 1000)} per call${serve === off || !cpuOff ? '' : ` (${(cpu / cpuOff).toFixed(3)} x off)`}`;
    console.log(`  ${words} median ${micro(at)}   p90 ${micro(p90(serve))}${versus}${cpuWords}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  console.log(`  exported: ${exported.requests} OTLP requests, ${(exported.bytes / 1024).toFixed(0)} KiB`);
} finally {
  await Promise.all(all.map((serve) => serve.stop()));
  sink.close();
  rmSync(tempDir, { recursive: true, force: true });
}
