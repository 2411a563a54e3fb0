/**
 * Key order that survives integer-like keys. JavaScript lists keys such as "1" before all
 * others, but servers must come out in file order, so parsed objects carry their order.
 */

const ORDER = Symbol("mcpx.keyOrder");

/** Builds a plain object from entries and remembers their order. */
export function orderedObject(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const list = Array.isArray(entries) ? (entries as readonly (readonly [string, unknown])[]) : [...entries];
  // fromEntries defines data properties (a "__proto__" key stays data, not a prototype) in one
  // call: defining each key on its own cost a 70-server config's read most of its time.
  const obj = Object.fromEntries(list) as Record<string, unknown>;
  Object.defineProperty(obj, ORDER, { value: list.map(([key]) => key), enumerable: false });
  return obj;
}

/** The object's own entries in the order they were written (insertion order if unknown). */
export function orderedEntries(obj: object): [string, unknown][] {
  const keys = (obj as { [ORDER]?: string[] })[ORDER] ?? Object.keys(obj);
  return keys.map((key) => [key, (obj as Record<string, unknown>)[key]]);
}
