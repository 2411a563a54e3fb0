/**
 * "Did you mean": the known names nearest to one that is not known. A name is near when it
 * is the same but for case or the `server__` prefix hosts see, or a few typos away. Pure.
 */

const MAX_SUGGESTIONS = 3;

export function nearest(wanted: string, known: readonly string[], limit = MAX_SUGGESTIONS): string[] {
  const target = wanted.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(known)) {
    const lower = name.toLowerCase();
    const bare = lower.slice(lower.indexOf("__") + 2); // `server__tool` as `tool`; the whole name when there is no prefix
    let score: number;
    if (lower === target || bare === target || lower === target.replace(".", "__")) score = 0;
    else {
      const distance = Math.min(editDistance(target, lower), editDistance(target, bare));
      score = distance <= Math.max(2, Math.floor(target.length / 3)) ? distance : Number.POSITIVE_INFINITY;
      if (score === Number.POSITIVE_INFINITY && target.length >= 3 && lower.includes(target)) score = 3;
    }
    if (score !== Number.POSITIVE_INFINITY) scored.push({ name, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** Levenshtein distance, with a transposition counted as one edit. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 16) return Math.abs(a.length - b.length);
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** ` (did you mean "a" or "b"?)`, or nothing when no name is near. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return "";
  const quoted = suggestions.map((name) => JSON.stringify(name));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
  return `; did you mean ${list}?`;
}
