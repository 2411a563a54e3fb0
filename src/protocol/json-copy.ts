/**
 * A deep copy of a JSON value (what `JSON.parse` gives, or objects built like it): plain objects
 * and arrays are copied, anything else is kept as it is. Some twenty times quicker than
 * `structuredClone` for the small result every call's answer is copied from.
 */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    // An own "__proto__" key (JSON.parse makes one) stays a key; assigning it would set the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
