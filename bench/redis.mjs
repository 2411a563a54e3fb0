// What the Redis benches share: a free loopback port, a redis-server with the settings
// docs/deploying.md asks for, and percentiles.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Whether `tool` runs here (redis-server, haproxy): the benches that need one skip without it. */
export function installed(tool) {
  return spawnSync(tool, [tool === 'haproxy' ? '-v' : '--version'], { stdio: 'ignore' }).status === 0;
}

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** redis-server on 127.0.0.1 in a temporary directory, AOF on (appendfsync everysec), no eviction. */
export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-bench-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--maxmemory-policy',
    'noeviction',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server not ready in 10 s:\n${out}`)), 10_000);
    const read = (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}:\n${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    version: /v=(\S+)/.exec(spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? '?',
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value at quantile `q` (0..1) of `values`. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export function summary(values) {
  return { p50: quantile(values, 0.5), p99: quantile(values, 0.99) };
}
