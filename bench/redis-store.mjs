#!/usr/bin/env node
// What the Redis store costs per operation against the SQLite store, on loopback, in one run:
//
//   - a plain tool call's path: one audit append;
//   - a question's path: insert, settle (the compare-and-set), get, markDelivered;
//   - an answer heard by another instance: a settle through one Redis store until the other's
//     onChange fires (pub/sub). (SQLite's processes hear by polling data_version every 25 ms.)
//
// Each operation runs --ops times after a warm-up, one at a time (latency, not throughput), the
// two stores alternating in blocks so a busy machine slows both alike. redis-server runs on
// 127.0.0.1 with the settings mcpx asks for (appendonly yes, appendfsync everysec) in a temp dir.
// Both are opened as mcpx opens them (dist/broker/open-store.js), so both are timed through the same
// asynchronous BrokerStore interface the broker uses.
//
//   npm run build && node bench/redis-store.mjs [--ops N]
//
// The target: the Redis store's overhead per call (the audit append) under 0.3 ms at p50.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './options.mjs';
import { installed, startRedis, summary } from './redis.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist', 'broker');
const OPS = numberOption('--ops', 2000);
const WARMUP = 200;
const BLOCK = 100;
const HEARD_ROUNDS = 300;

if (!existsSync(path.join(DIST, 'redis', 'open.js'))) throw new Error('run `npm run build` first: dist/broker/redis/open.js is missing');
if (!installed('redis-server')) {
  console.log('redis store: skipped (redis-server is not installed; apt-get install redis-server)');
  process.exit(0);
}

const { openStore } = await import(path.join(DIST, 'open-store.js'));

let counter = 0;
function question() {
  counter += 1;
  const now = Date.now();
  return {
    id: `q-bench-${counter}-${randomUUID()}`,
    server: 'files',
    kind: 'elicitation',
    method: 'elicitation/create',
    mode: 'form',
    message: 'Which file?',
    params: { message: 'Which file?', requestedSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    tool: 'read',
    hostSession: 'session-1',
    audience: 'agent',
    audienceReason: 'no sensitive words',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    state: 'pending',
    ownerPid: process.pid,
    ownerInstance: 'bench',
  };
}

const AUDIT_ENTRY = {
  kind: 'call',
  identity: 'local',
  hostSession: 'session-1',
  client: 'bench 1.0',
  server: 'files',
  tool: 'read',
  arguments: { path: '/tmp/x' },
  outcome: 'ok',
  durationMs: 2,
};
const ANSWER = { action: 'accept', content: { path: '/tmp/x' }, by: 'web', from: '127.0.0.1' };

/** One question's path, each step timed: insert, settle, get, markDelivered. */
async function questionPath(store, samples) {
  const record = question();
  let start = performance.now();
  await store.questions.insert(record);
  samples.insert.push(performance.now() - start);
  start = performance.now();
  await store.questions.settle(record.id, 'answered', ANSWER);
  samples.settle.push(performance.now() - start);
  start = performance.now();
  await store.questions.get(record.id);
  samples.get.push(performance.now() - start);
  start = performance.now();
  await store.questions.markDelivered(record.id);
  samples.markDelivered.push(performance.now() - start);
}

async function auditAppend(store, samples) {
  const start = performance.now();
  await store.audit.append(AUDIT_ENTRY);
  samples.append.push(performance.now() - start);
}

/** An answer settled through `writer` until `reader` hears it. */
async function heardAfter(writer, reader) {
  const record = question();
  await writer.questions.insert(record);
  await new Promise((resolve) => setTimeout(resolve, 2));
  const heard = new Promise((resolve) => {
    const stop = reader.onChange(() => {
      stop();
      resolve(performance.now());
    });
  });
  const start = performance.now();
  await writer.questions.settle(record.id, 'answered', ANSWER);
  return (await heard) - start;
}

const temp = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-store-'));
const redis = await startRedis();
try {
  const sqlite = await openStore({ stateDir: path.join(temp, 'sqlite') });
  const redisStore = await openStore({ stateDir: path.join(temp, 'redis-state'), url: redis.url });
  const redisReader = await openStore({ stateDir: path.join(temp, 'redis-state-2'), url: redis.url });
  const stores = { sqlite, redis: redisStore };
  const samples = Object.fromEntries(Object.keys(stores).map((name) => [name, { append: [], insert: [], settle: [], get: [], markDelivered: [] }]));
  const throwaway = { append: [], insert: [], settle: [], get: [], markDelivered: [] };
  for (const store of Object.values(stores)) {
    for (let i = 0; i < WARMUP; i += 1) {
      await auditAppend(store, throwaway);
      await questionPath(store, throwaway);
    }
  }
  for (let done = 0; done < OPS; done += BLOCK) {
    for (const [name, store] of Object.entries(stores)) {
      for (let i = 0; i < BLOCK; i += 1) {
        await auditAppend(store, samples[name]);
        await questionPath(store, samples[name]);
      }
    }
  }
  const heard = [];
  for (let i = 0; i < HEARD_ROUNDS; i += 1) heard.push(await heardAfter(redisStore, redisReader));

  const fmt = (ms) => `${ms.toFixed(3)} ms`.padStart(10);
  console.log(`store operations, one at a time, ${OPS} each (p50 / p99), redis-server ${redis.version} on loopback, appendfsync everysec`);
  console.log(`${'operation'.padEnd(28)}${'SQLite p50'.padStart(12)}${'p99'.padStart(11)}${'Redis p50'.padStart(12)}${'p99'.padStart(11)}`);
  for (const op of ['append', 'insert', 'settle', 'get', 'markDelivered']) {
    const s = summary(samples.sqlite[op]);
    const r = summary(samples.redis[op]);
    const label = op === 'append' ? 'audit append (a plain call)' : `question ${op}`;
    console.log(`${label.padEnd(28)}${fmt(s.p50).padStart(12)}${fmt(s.p99).padStart(11)}${fmt(r.p50).padStart(12)}${fmt(r.p99).padStart(11)}`);
  }
  const questionTotal = (name) =>
    summary(samples[name].insert.map((_, i) => samples[name].insert[i] + samples[name].settle[i] + samples[name].get[i] + samples[name].markDelivered[i]));
  const qs = questionTotal('sqlite');
  const qr = questionTotal('redis');
  console.log(
    `${'a question (the four)'.padEnd(28)}${fmt(qs.p50).padStart(12)}${fmt(qs.p99).padStart(11)}${fmt(qr.p50).padStart(12)}${fmt(qr.p99).padStart(11)}`,
  );
  const h = summary(heard);
  console.log(`an answer heard by another Redis store (pub/sub), ${HEARD_ROUNDS} rounds: p50 ${h.p50.toFixed(3)} ms, p99 ${h.p99.toFixed(3)} ms`);
  const target = summary(samples.redis.append).p50;
  console.log(`target: the Redis store's per-call overhead (audit append) under 0.3 ms at p50: ${target.toFixed(3)} ms, ${target < 0.3 ? 'met' : 'NOT met'}`);
  await sqlite.close();
  await redisStore.close();
  await redisReader.close();
} finally {
  redis.stop();
  rmSync(temp, { recursive: true, force: true });
}
