#!/usr/bin/env node
// Self time per function in a V8 CPU profile (node --cpu-prof; bench/roundtrip.mjs --profile),
// biggest first, to see where mcpx spends its time. With --tree NAME, the callers of every
// function named NAME, with the self time spent under each (inclusive).
//
//   node bench/cpu-top.mjs FILE.cpuprofile [--top N] [--tree NAME [--depth D]]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: cpu-top.mjs FILE.cpuprofile [--top N] [--tree NAME]\n');
  process.exit(2);
}
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const top = Number(option('--top') ?? 40);
const tree = option('--tree');
const depth = Number(option('--depth') ?? 6);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

// Sample intervals: timeDeltas[i] is the time before sample i.
const selfUs = new Map();
let totalUs = 0;
profile.samples.forEach((id, at) => {
  const delta = profile.timeDeltas[at] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  totalUs += delta;
});

const where = ({ callFrame: frame }) =>
  `${frame.functionName || '(anonymous)'} ${frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();

const byFunction = new Map();
for (const [id, us] of selfUs) {
  const key = where(byId.get(id));
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const idle = [...byFunction].filter(([key]) => key.startsWith('(idle)')).reduce((sum, [, us]) => sum + us, 0);
process.stdout.write(`${path.basename(file)}: ${(totalUs / 1000).toFixed(0)} ms sampled, ${((totalUs - idle) / 1000).toFixed(0)} ms busy\n`);
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / (totalUs - idle)).toFixed(1).padStart(5)}%  ${key}\n`);
}

if (tree) {
  // Inclusive time of each node, then the stacks that lead to nodes named `tree`.
  const inclusive = new Map();
  const total = (id) => {
    if (inclusive.has(id)) return inclusive.get(id);
    const node = byId.get(id);
    const sum = (selfUs.get(id) ?? 0) + (node.children ?? []).reduce((acc, child) => acc + total(child), 0);
    inclusive.set(id, sum);
    return sum;
  };
  const stacks = new Map();
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== tree) continue;
    const chain = [];
    for (let id = parentOf.get(node.id); id !== undefined && chain.length < depth; id = parentOf.get(id)) chain.push(where(byId.get(id)));
    const key = chain.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + total(node.id));
  }
  process.stdout.write(`\ncallers of ${tree} (inclusive ms):\n`);
  for (const [key, us] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    process.stdout.write(`${(us / 1000).toFixed(1).padStart(9)} ms  ${key}\n`);
  }
}
