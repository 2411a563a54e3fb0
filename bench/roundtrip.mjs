#!/usr/bin/env node
// What mcpx costs per call and per question, measured against floors taken in the same run, so a
// slip shows even on a busy machine:
//
//   1. one call: a host session over HTTP -> mcpx serve --http -> a stdio upstream
//      (bench/echo-server.mjs), against a bare node:http JSON-RPC echo (bench/bare-echo.mjs,
//      the floor) and a direct stdio call to the same upstream. mcpx's own cost per call is
//      mcpx - floor - stdio.
//   2. throughput: 1, 10 and 100 HTTP sessions calling in a loop, mcpx against the floor.
//   3. a question answered at once by a stdio host: the upstream's `ask` tool through
//      mcpx serve (stdio) and directly; the question's own cost is
//      (ask through mcpx - ask direct) - (plain call through mcpx - plain call direct).
//
// Every measurement alternates its targets in blocks after a warm-up, and the clients are raw
// (node:http with keep-alive, newline-delimited JSON on pipes), so what differs is the server.
// Every process binds 127.0.0.1 only. Run with `npm run bench` (builds first).
//
//   node bench/roundtrip.mjs [--calls N] [--seconds S] [--mcpx DIR]... [--profile DIR] [--phases LIST]
//
// The question's own cost is given for a question an agent may answer and for a consent, which
// mcpx keeps for a person (or the calling host) and forgets once delivered.
//
// --mcpx DIR measures the mcpx built in DIR (its bin/mcpx.js and dist/) beside this checkout's,
// in the same alternating blocks: how an older build compares (git worktree or archive of it).
// --profile DIR writes a CPU profile of every mcpx process into DIR (node --cpu-prof), to be
// read for self time per function (bench/cpu-top.mjs). --phases call,throughput,question picks
// the measurements to run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ECHO = path.join(ROOT, 'bench', 'echo-server.mjs');
const BARE = path.join(ROOT, 'bench', 'bare-echo.mjs');

const CALLS = numberOption('--calls', 2000);
const SECONDS = numberOption('--seconds', 3);
const WARMUP = 100;
const BLOCK = 50;
const CONCURRENCY = [1, 10, 100];
const START_TIMEOUT_MS = 15_000;
const CALL_TIMEOUT_MS = 10_000;
const REVISION = '2025-11-25';
const ARGS = { text: 'hello' };

function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function stringOption(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const PROFILE_DIR = stringOption('--profile');
/** Which measurements to run (all by default): call, throughput, question. */
const PHASES = new Set((stringOption('--phases') ?? 'call,throughput,question').split(','));
/** Node's own options for every mcpx process. */
const MCPX_NODE_ARGS = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : [];

/** The mcpx builds measured: this checkout, then each --mcpx DIR. */
function builds() {
  const list = [{ label: 'mcpx', bin: path.join(ROOT, 'bin', 'mcpx.js') }];
  process.argv.forEach((arg, at) => {
    if (arg !== '--mcpx') return;
    const dir = path.resolve(process.argv[at + 1]);
    list.push({ label: `mcpx@${path.basename(dir)}`, bin: path.join(dir, 'bin', 'mcpx.js') });
  });
  return list;
}

// --- processes -------------------------------------------------------------------------------

const cleanups = [];
const tempDir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-'));
cleanups.push(async () => rmSync(tempDir, { recursive: true, force: true }));

/** mcpx's environment: the default log level (what users run); a state dir per process. */
function env(stateDir) {
  const vars = { ...process.env, MCPX_STATE_DIR: path.join(tempDir, stateDir) };
  delete vars.MCPX_LOG_LEVEL;
  return vars;
}

let configs = 0;
function stdioUpstreamConfig() {
  const file = path.join(tempDir, `config-${++configs}.json`);
  writeFileSync(file, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO, '--stdio'] } } }));
  return file;
}

/** Counts the lines a child writes on stderr (mcpx's log). */
function countLines(stream) {
  const log = { lines: 0 };
  stream.on('data', (chunk) => {
    for (const byte of chunk) if (byte === 10) log.lines++;
  });
  return log;
}

/** Spawn a node script; resolve once `pattern` matches a line of `stream` (its first group is the URL). */
function startListening(args, stream, pattern, vars) {
  const child = spawn(process.execPath, args, { env: vars, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => stop(child));
  const log = countLines(child.stderr);
  if (stream === 'stdout') child.stderr.resume();
  else child.stdout.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), START_TIMEOUT_MS);
    let text = '';
    child[stream].on('data', function listen(chunk) {
      text += chunk.toString('utf8');
      const match = pattern.exec(text);
      if (!match) return;
      clearTimeout(timer);
      child[stream].off('data', listen);
      child[stream].resume();
      resolve({ url: new URL(match[1]), pid: child.pid, log });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
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

/** CPU time (user + system) a process has used so far, in ms; undefined where /proc is missing. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

// --- raw clients -----------------------------------------------------------------------------

/**
 * A JSON-RPC peer over a child's stdio, newline-delimited. Requests from the child (the
 * upstream's question) are answered at once by `answer`.
 */
class StdioPeer {
  #next = 1;
  #pending = new Map();
  #buffer = '';

  constructor(args, vars, answer) {
    this.child = spawn(process.execPath, args, { env: vars, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => stop(this.child));
    this.pid = this.child.pid;
    this.log = countLines(this.child.stderr);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => this.#read(chunk, answer));
    this.child.once('exit', (code) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`${args.join(' ')} exited with ${code}`));
    });
  }

  #read(chunk, answer) {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf('\n');
    while (end >= 0) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      if (line.trim() !== '') this.#message(JSON.parse(line), answer);
      end = this.#buffer.indexOf('\n');
    }
  }

  #message(message, answer) {
    if (message.method !== undefined) {
      if (message.id !== undefined) this.#send({ jsonrpc: '2.0', id: message.id, result: answer(message) });
      return;
    }
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (message.error) waiting.reject(new Error(JSON.stringify(message.error)));
    else waiting.resolve(message.result);
  }

  #send(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method, params) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.#send({ jsonrpc: '2.0', method, params });
  }
}

/** The host's answer to every question: accept, with `true` for its one field or, for text, "yes". */
function answerYes(message) {
  if (message.method !== 'elicitation/create') return {};
  const [[field, schema]] = Object.entries(message.params.requestedSchema.properties);
  return { action: 'accept', content: { [field]: schema.type === 'boolean' ? true : 'yes' } };
}

/** An MCP client session over raw stdio: initialize, then wait (bounded) until `tool` is listed. */
async function stdioSession(args, vars, tool) {
  const peer = new StdioPeer(args, vars, answerYes);
  const capabilities = { elicitation: { form: {} } };
  await peer.request('initialize', { protocolVersion: REVISION, capabilities, clientInfo: CLIENT_INFO });
  peer.notify('notifications/initialized');
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!(await peer.request('tools/list', {})).tools.some((listed) => listed.name === tool)) {
    if (performance.now() > deadline) throw new Error(`tool ${tool} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return peer;
}

const CLIENT_INFO = { name: 'mcpx-bench', version: '1.0.0' };

/** One keep-alive socket per session; POST a JSON-RPC message, read a JSON or SSE answer. */
class HttpSession {
  #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  #next = 1;
  #headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  constructor(url) {
    this.url = url;
  }

  /** An MCP session (mcpx): initialize and keep its Mcp-Session-Id. */
  async initialize() {
    const { headers, answer } = await this.post({ method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: CLIENT_INFO } });
    if (headers['mcp-session-id'] === undefined) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
    this.#headers['mcp-session-id'] = headers['mcp-session-id'];
    this.#headers['mcp-protocol-version'] = REVISION;
    await this.post({ method: 'notifications/initialized' }, false);
    return this;
  }

  post(message, isRequest = true) {
    const id = isRequest ? this.#next++ : undefined;
    const body = JSON.stringify({ jsonrpc: '2.0', id, ...message });
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(this.url, { method: 'POST', agent: this.#agent, headers: this.#headers, timeout: CALL_TIMEOUT_MS }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => {
          if (!isRequest) return resolve({ headers: response.headers });
          try {
            resolve({ headers: response.headers, answer: answerIn(text, response.headers['content-type'], id) });
          } catch (error) {
            reject(error);
          }
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async call(name) {
    const { answer } = await this.post({ method: 'tools/call', params: { name, arguments: ARGS } });
    if (answer.result?.content?.[0]?.text !== ARGS.text) throw new Error(`bad echo: ${JSON.stringify(answer)}`);
  }

  /** Ends the MCP session, if any (mcpx bounds them), and the socket. */
  async close() {
    if (this.#headers['mcp-session-id'] !== undefined) {
      await new Promise((resolve) => {
        const outgoing = httpRequest(this.url, { method: 'DELETE', agent: this.#agent, headers: this.#headers }, (response) =>
          response.resume().on('end', resolve),
        );
        outgoing.on('error', resolve);
        outgoing.end();
      });
    }
    this.#agent.destroy();
  }
}

/** The answer with `id` in a JSON body or among an SSE stream's events. */
function answerIn(text, contentType, id) {
  if (!contentType?.startsWith('text/event-stream')) return JSON.parse(text);
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '') continue;
    const message = JSON.parse(data);
    if (message.id === id) return message;
  }
  throw new Error(`no answer to ${id} in ${JSON.stringify(text.slice(0, 200))}`);
}

async function stdioCall(peer, name) {
  const result = await peer.request('tools/call', { name, arguments: ARGS });
  if (result?.content?.[0]?.text !== ARGS.text) throw new Error(`bad echo: ${JSON.stringify(result)}`);
}

async function stdioAsk(peer, name, expected) {
  const result = await peer.request('tools/call', { name, arguments: {} });
  if (result?.content?.[0]?.text !== expected) throw new Error(`bad answer: ${JSON.stringify(result)}`);
}

/** The upstream's question tools: one an agent may answer, one only a person or the calling host (a consent). */
const QUESTION_TOOLS = [
  { tool: 'ask', expected: 'accept:yes', label: 'a question an agent may answer' },
  { tool: 'confirm', expected: 'accept:true', label: 'a consent (person-only)' },
];

// --- measurements ----------------------------------------------------------------------------

/**
 * Sequential round trips of every target, alternating in blocks after a warm-up, so all see
 * the same conditions. Each target is { label, run, pid? }; returns sorted samples (ms) and the
 * CPU ms per call of the target's process, where a pid is given.
 */
async function roundTrips(targets) {
  for (const target of targets) for (let i = 0; i < WARMUP; i++) await target.run();
  const results = targets.map(() => ({ samples: [], cpu: 0 }));
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (const [at, target] of targets.entries()) {
      const before = target.pid === undefined ? undefined : cpuMs(target.pid);
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now();
        await target.run();
        results[at].samples.push(performance.now() - started);
      }
      const after = target.pid === undefined ? undefined : cpuMs(target.pid);
      results[at].cpu = before === undefined || after === undefined ? undefined : results[at].cpu + (after - before);
    }
  }
  return results.map(({ samples, cpu }) => ({
    samples: samples.sort((a, b) => a - b),
    cpu: cpu === undefined ? undefined : cpu / samples.length,
  }));
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const p50 = (sorted) => quantile(sorted, 0.5);
const p95 = (sorted) => quantile(sorted, 0.95);

/** `sessions` HTTP sessions against `url` calling `name` in a loop for `seconds`: calls made. */
async function loop(url, name, sessions, seconds, mcp) {
  const clients = Array.from({ length: sessions }, () => new HttpSession(url));
  if (mcp) await Promise.all(clients.map((client) => client.initialize()));
  await Promise.all(clients.map((client) => client.call(name))); // warm every socket
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  const counts = await Promise.all(
    clients.map(async (client) => {
      let count = 0;
      while (performance.now() < end) {
        await client.call(name);
        count++;
      }
      return count;
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  return { calls: counts.reduce((a, b) => a + b, 0), seconds: elapsed };
}

/** Throughput targets take turns this many times at each concurrency, so a burst elsewhere on the machine hits all alike. */
const ROUNDS = 4;

/** Calls per second of every target at each concurrency, in alternating rounds. */
async function throughput(targets) {
  const rows = [];
  for (const sessions of CONCURRENCY) {
    const totals = targets.map(() => ({ calls: 0, seconds: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [at, target] of targets.entries()) {
        const { calls, seconds } = await loop(target.url, target.tool, sessions, SECONDS / ROUNDS, target.mcp);
        totals[at].calls += calls;
        totals[at].seconds += seconds;
      }
    }
    rows.push({ sessions, rates: totals.map(({ calls, seconds }) => calls / seconds) });
  }
  return rows;
}

// --- output ----------------------------------------------------------------------------------

const ms = (value) => value.toFixed(3).padStart(8);
const cpuText = (value) => (value === undefined ? 'n/a' : value.toFixed(3)).padStart(8);

// --- main ------------------------------------------------------------------------------------

async function main() {
  const wall = performance.now();
  const mcpxBuilds = builds();
  const out = [];
  out.push(`mcpx bench: Node ${process.version}; ${CALLS} sequential calls per target in alternating blocks of ${BLOCK} after ${WARMUP} warm-up`);

  // 1. One call over HTTP: the floor, a direct stdio call, and each mcpx in front of a stdio upstream.
  const bare = await startListening([BARE], 'stdout', /LISTENING (\S+)/, process.env);
  const floor = new HttpSession(bare.url);
  const direct = await stdioSession([ECHO, '--stdio'], process.env, 'echo');
  const viaHttp = [];
  for (const [at, build] of mcpxBuilds.entries()) {
    const args = [...MCPX_NODE_ARGS, build.bin, 'serve', '--http', '--port', '0', '--config', stdioUpstreamConfig()];
    const server = await startListening(args, 'stderr', /serving MCP at (\S+)/, env(`http-${at}`));
    const session = await new HttpSession(server.url).initialize();
    const deadline = performance.now() + START_TIMEOUT_MS;
    while (!(await session.post({ method: 'tools/list', params: {} })).answer.result?.tools?.some((tool) => tool.name === 'echo__echo')) {
      if (performance.now() > deadline) throw new Error('tool echo__echo never appeared');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    viaHttp.push({ build, server, session });
  }
  const logBefore = viaHttp.map(({ server }) => server.log.lines);
  const calls = !PHASES.has('call')
    ? undefined
    : await roundTrips([
        { run: () => floor.call('echo') },
        { run: () => stdioCall(direct, 'echo') },
        ...viaHttp.map(({ server, session }) => ({ run: () => session.call('echo__echo'), pid: server.pid })),
      ]);
  const logLines = viaHttp.map(({ server }, at) => server.log.lines - logBefore[at]);
  await floor.close();
  for (const { session } of viaHttp) await session.close();

  if (calls) {
    const [floorCalls, stdioCalls, ...mcpxCalls] = calls;
    out.push('');
    out.push('1. one call: a host session over HTTP, mcpx in front of a stdio upstream (ms)');
    out.push('                                            p50      p95  mcpx CPU/call');
    out.push(`bare node:http JSON-RPC echo (floor)   ${ms(p50(floorCalls.samples))} ${ms(p95(floorCalls.samples))}`);
    out.push(`direct stdio call to the upstream      ${ms(p50(stdioCalls.samples))} ${ms(p95(stdioCalls.samples))}`);
    for (const [at, { build }] of viaHttp.entries()) {
      const { samples, cpu } = mcpxCalls[at];
      const own = (q) => q(samples) - q(floorCalls.samples) - q(stdioCalls.samples);
      out.push(`${`${build.label} (HTTP -> stdio)`.padEnd(38)} ${ms(p50(samples))} ${ms(p95(samples))} ${cpuText(cpu)}`);
      out.push(`${`  its own (${build.label} - floor - stdio)`.padEnd(38)} ${ms(own(p50))} ${ms(own(p95))}`);
    }
    out.push(`mcpx log lines during these calls at the default level: ${viaHttp.map(({ build }, at) => `${build.label} ${logLines[at]}`).join(', ')}`);
  }

  // 2. Throughput: HTTP sessions calling in a loop, each mcpx against the floor.
  const rows = !PHASES.has('throughput')
    ? []
    : await throughput([{ url: bare.url, tool: 'echo', mcp: false }, ...viaHttp.map(({ server }) => ({ url: server.url, tool: 'echo__echo', mcp: true }))]);
  if (rows.length > 0) {
    out.push('');
    out.push(`2. throughput: HTTP sessions calling in a loop, ${SECONDS} s per target in ${ROUNDS} alternating rounds (calls/s)`);
    out.push(`sessions     floor  ${viaHttp.map(({ build }) => `${build.label.padStart(14)}  /floor`).join('  ')}`);
    for (const { sessions, rates } of rows) {
      const [floorRate, ...mcpxRates] = rates;
      const cells = mcpxRates.map((rate) => `${rate.toFixed(0).padStart(14)}  ${(rate / floorRate).toFixed(2).padStart(5)}x`);
      out.push(`${String(sessions).padStart(8)}  ${floorRate.toFixed(0).padStart(8)}  ${cells.join('  ')}`);
    }
  }

  // 3. A question answered at once by a stdio host, against the same plain call.
  const viaStdio = [];
  for (const [at, build] of PHASES.has('question') ? mcpxBuilds.entries() : []) {
    const args = [...MCPX_NODE_ARGS, build.bin, 'serve', '--config', stdioUpstreamConfig()];
    viaStdio.push({ build, peer: await stdioSession(args, env(`stdio-${at}`), 'echo__confirm') });
  }
  if (viaStdio.length > 0) {
    out.push('');
    out.push('3. a question answered at once by a stdio host (mcpx serve on stdio, stdio upstream) (ms)');
    out.push('                                            p50      p95');
  }
  for (const { tool, expected, label } of viaStdio.length > 0 ? QUESTION_TOOLS : []) {
    const questions = await roundTrips([
      { run: () => stdioAsk(direct, tool, expected) },
      { run: () => stdioCall(direct, 'echo') },
      ...viaStdio.flatMap(({ peer }) => [{ run: () => stdioAsk(peer, `echo__${tool}`, expected) }, { run: () => stdioCall(peer, 'echo__echo') }]),
    ]);
    const [askDirect, callDirect, ...viaMcpx] = questions.map(({ samples }) => samples);
    out.push(`${label}:`);
    out.push(`  call that asks, direct               ${ms(p50(askDirect))} ${ms(p95(askDirect))}`);
    out.push(`  plain call, direct                   ${ms(p50(callDirect))} ${ms(p95(callDirect))}`);
    for (const [at, { build }] of viaStdio.entries()) {
      const [ask, plain] = [viaMcpx[2 * at], viaMcpx[2 * at + 1]];
      const own = (q) => q(ask) - q(askDirect) - (q(plain) - q(callDirect));
      out.push(`${`  call that asks, ${build.label}`.padEnd(38)} ${ms(p50(ask))} ${ms(p95(ask))}`);
      out.push(`${`  plain call, ${build.label}`.padEnd(38)} ${ms(p50(plain))} ${ms(p95(plain))}`);
      out.push(`${`  the question's own cost (${build.label})`.padEnd(38)} ${ms(own(p50))} ${ms(own(p95))}`);
    }
  }

  out.push('');
  const load = loadavg()[0].toFixed(1);
  out.push(
    `clients, mcpx and upstreams share this machine's ${availableParallelism()} cores (1-min load average ${load}); total ${((performance.now() - wall) / 1000).toFixed(1)} s`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
