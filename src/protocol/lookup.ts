/**
 * Tables keyed by strings from the wire (method names, content types, paths). A plain object
 * literal answers `toString`, `__proto__` or `constructor` from Object.prototype; a Map answers
 * only what it was given.
 */
export function lookupTable<T>(entries: { readonly [key: string]: T }): ReadonlyMap<string, T> {
  return new Map(Object.entries(entries));
}
