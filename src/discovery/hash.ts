/**
 * A fast, non-cryptographic 128-bit hash (four seeded 32-bit FNV-1a lanes with a final mix), for
 * the cache's file names and keys: loading node:crypto costs more than a discovery command can
 * spare. Nothing relies on it against an adversary: an entry is checked against the definition
 * it claims to be for, and whoever could plant a collision could write the cache anyway.
 */
export function fastHash(text: string): string {
  let out = "";
  for (const seed of SEEDS) {
    let hash = seed;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    // Avalanche, so lanes that differ only by seed end far apart.
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash ^= hash >>> 16;
    out += (hash >>> 0).toString(16).padStart(8, "0");
  }
  return out;
}

const SEEDS = [0x811c9dc5, 0x9e3779b9, 0x243f6a88, 0xb7e15162];
