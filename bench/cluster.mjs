#!/usr/bin/env node
// Several mcpx instances on one Redis, behind HAProxy (round robin, no stickiness), against one:
//
//   - calls per second: --sessions legacy SDK 1.x sessions, each calling bench/echo-server.mjs's
//     `echo` back to back for --seconds, through the balancer to 1 and to 3 instances; the
//     baseline is the same load straight to one instance (no balancer) on the SQLite store;
//   - the question round trip: a call whose upstream asks (`ask`), the question answered over
//     REST on another instance than the asker, until the call's result is back at its host;
//   - the Redis store's per-call cost: p50 of sequential echo calls on one instance with
//     `store.url` against the same on SQLite (the target: < 0.3 ms), and on a cluster
//     member (ids naming it, heartbeats, three instances on the same cores), taking turns.
//
// Everything runs on this machine: mcpx instances, their upstreams, redis-server, haproxy and the
// load. On 2 cores, 3 instances cannot give 3 instances' worth of CPU: the ratio says what the
// machine allows, not what 3 machines would.
//
//   npm run build && node bench/cluster.mjs [--sessions N] [--seconds N] [--calls N] [--rounds N]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { numberOption } from './options.mjs';
import { freePort, installed, quantile, startRedis } from './redis.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SESSIONS = numberOption('--sessions', 8);
const SECONDS = numberOption('--seconds', 5);
const CALLS = numberOption('--calls', 1000);
const ROUNDS = numberOption('--rounds', 20);
const SECRET = 'bench-cluster-secret-0123456789abcdef-0123';
const children = [];

const missing = ['redis-server', 'haproxy'].filter((tool) => !installed(tool));
if (missing.length > 0) {
  console.log(`cluster: skipped (${missing.join(' and ')} not installed)`);
  process.exit();
}

function start(command, args, ready, env = process.env) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} not ready in 30 s:\n${log}`)), 30_000);
    const read = (chunk) => {
      log += chunk;
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}):\n${log}`)));
  });
}

async function startHaproxy(backends) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout tunnel 1h',
      'frontend mcpx',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      ...backends.map((backend, i) => `  server i${i} 127.0.0.1:${backend}`),
      '',
    ].join('\n'),
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => setTimeout(resolve, 500));
  return `http://127.0.0.1:${port}`;
}

/** `mcpx serve --http` on `port` with its own state dir; resolves with its origin. */
async function startInstance(port, extra) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-instance-'));
  const file = path.join(dir, 'mcpx.json');
  const echo = { command: process.execPath, args: [path.join(ROOT, 'bench', 'echo-server.mjs'), '--stdio'] };
  writeFileSync(file, JSON.stringify({ mcpServers: { echo }, elicitation: { ttlSeconds: 120 }, ...extra }));
  const env = { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state'), MCPX_LOG_LEVEL: 'warn', MCPX_NO_DAEMON: '1' };
  await start(process.execPath, [path.join(ROOT, 'bin', 'mcpx.js'), 'serve', '--http', '--port', String(port), '--config', file], /1 of 1 servers? up/, env);
  return { origin: `http://127.0.0.1:${port}`, stateDir: path.join(dir, 'state') };
}

async function session(base) {
  const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
  return client;
}

/** Calls per second of `SESSIONS` sessions calling echo back to back for SECONDS. */
async function throughput(base) {
  const clients = await Promise.all(Array.from({ length: SESSIONS }, () => session(base)));
  await Promise.all(clients.map((client) => client.callTool({ name: 'echo__echo', arguments: { text: 'warm' } })));
  let calls = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        await client.callTool({ name: 'echo__echo', arguments: { text: 'x' } });
        calls++;
      }
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
  return calls / SECONDS;
}

/**
 * p50 of CALLS sequential echo calls on one session to each origin, in ms: the origins take turns
 * in blocks of 50, so a machine busy for a moment slows both alike.
 */
async function p50s(origins) {
  const clients = await Promise.all(origins.map((origin) => session(origin)));
  const times = origins.map(() => []);
  for (let block = -1; block < CALLS / 50; block++) {
    for (const [at, client] of clients.entries()) {
      for (let i = 0; i < 50; i++) {
        const started = performance.now();
        await client.callTool({ name: 'echo__echo', arguments: { text: 'x' } });
        if (block >= 0) times[at].push(performance.now() - started); // the first block warms up
      }
    }
  }
  await Promise.all(clients.map((client) => client.close()));
  return times.map((each) => quantile(each, 0.5));
}

/**
 * Question round trips: ask through the balancer, answer over REST on the instance holding the
 * session (`where` 'holder') or on another (`'other'`: the answer reaches the waiting call through
 * the store's pub/sub). The session id names its holder (`<instance>.<uuid>`); the store has its address.
 */
async function questionRoundTrips(base, instances, store, rounds, where) {
  const token = await store.secrets.get('api-token');
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base));
  const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities: {} }); // no elicitation: the question waits for REST
  await client.connect(transport);
  const holder = await store.liveness.addressOf(transport.sessionId.split('.')[0]);
  const other = instances.find((instance) => (where === 'holder') === (instance.origin === holder));
  if (holder === undefined || other === undefined) throw new Error(`no instance to answer on (${where} of ${holder})`);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const call = client.callTool({ name: 'echo__ask', arguments: {} });
    let question;
    while (question === undefined) {
      const listed = await (await fetch(`${other.origin}/v1/questions`, { headers })).json();
      question = listed.find((record) => record.state === 'pending');
    }
    const reply = await fetch(`${other.origin}/v1/questions/${question.id}/answer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'accept', content: { label: 'bench' } }),
    });
    if (reply.status !== 200) throw new Error(`answering ${question.id} on ${other.origin}: ${reply.status} ${await reply.text()}`);
    const result = await call;
    if (result.content[0]?.text !== 'accept:bench') throw new Error(`the call ended with ${JSON.stringify(result)}`);
    times.push(performance.now() - started);
  }
  await client.close();
  return quantile(times, 0.5);
}

const fmt = (n, digits = 1) => n.toFixed(digits);
let redisServer;
try {
  redisServer = await startRedis();
  const redis = redisServer.url;
  const lines = [`machine: ${cpus().length} cores; ${SESSIONS} sessions, ${SECONDS} s each run; everything on this machine`];

  // Baseline: one instance on SQLite, no balancer.
  const sqlitePort = await freePort();
  const sqlite = await startInstance(sqlitePort, {});
  const direct = await throughput(sqlite.origin);

  const ports = [await freePort(), await freePort(), await freePort()];
  // The 1-instance balancer is a second public address of the first instance.
  const cluster = (proxy) => ({ store: { url: redis }, cluster: { secret: SECRET, publicUrl: proxy }, http: { allowedHosts: [new URL(proxy1).host] } });
  const proxy1 = await startHaproxy([ports[0]]);
  const proxy3 = await startHaproxy(ports);
  const instances = await Promise.all(ports.map((port) => startInstance(port, cluster(proxy3))));
  // The store alone: one more instance on the same Redis, not in the cluster, measured beside the two.
  const alone = await startInstance(await freePort(), { store: { url: redis } });
  const [sqliteP50, redisP50, clusterP50] = await p50s([sqlite.origin, alone.origin, instances[0].origin]);
  const one = await throughput(proxy1);
  const three = await throughput(proxy3);
  const { openStore } = await import(path.join(ROOT, 'dist', 'broker', 'open-store.js'));
  const store = await openStore({ stateDir: mkdtempSync(path.join(tmpdir(), 'mcpx-bench-store-')), url: redis });
  lines.push(`calls/s, 1 instance on SQLite, direct (baseline): ${fmt(direct)}`);
  lines.push(`calls/s, 1 instance on Redis behind HAProxy:       ${fmt(one)} (${fmt(one / direct, 2)}x baseline)`);
  lines.push(
    `calls/s, 3 instances on Redis behind HAProxy:      ${fmt(three)} (${fmt(three / direct, 2)}x baseline, ${fmt(three / one, 2)}x one instance; target 2.5x on a machine with the cores)`,
  );
  lines.push(
    `echo call p50 on one instance: SQLite ${fmt(sqliteP50, 2)} ms, Redis ${fmt(redisP50, 2)} ms, Redis in the cluster ${fmt(clusterP50, 2)} ms`,
    `  the Redis store's per-call cost: ${fmt(redisP50 - sqliteP50, 2)} ms (target < 0.3 ms); the cluster's on top: ${fmt(clusterP50 - redisP50, 2)} ms`,
  );
  console.log(lines.join('\n'));
  const same = await questionRoundTrips(proxy3, instances, store, ROUNDS, 'holder');
  const across = await questionRoundTrips(proxy3, instances, store, ROUNDS, 'other');
  console.log(
    `question round trip (call, question, REST answer, result), p50 of ${ROUNDS}: answered on the holder ${fmt(same)} ms, on another instance ${fmt(across)} ms`,
  );
  await store.close();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGTERM');
  redisServer?.stop();
  process.exit();
}
