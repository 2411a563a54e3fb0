/**
 * Key order that survives integer-like keys. JavaScript lists keys such as "1" before all
 * others, but servers must come out in file order, so parsed objects carry their order.
 */

const ORDER = Symbol("mcpx.keyOrder");

/** Builds a plain object from entries and remembers their order. */
export function orderedObject(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const [key, value] of entries) {
    // defineProperty, not assignment: a "__proto__" key must stay data, not a prototype.
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
    keys.push(key);
  }
  Object.defineProperty(obj, ORDER, { value: keys, enumerable: false });
  return obj;
}

/** The object's own entries in the order they were written (insertion order if unknown). */
export function orderedEntries(obj: object): [string, unknown][] {
  const keys = (obj as { [ORDER]?: string[] })[ORDER] ?? Object.keys(obj);
  return keys.map((key) => [key, (obj as Record<string, unknown>)[key]]);
}
