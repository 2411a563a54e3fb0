/** A location inside the config document, e.g. `["mcpServers", "files", "args", 0]`. */
export type KeyPath = readonly (string | number)[];

// Plain names read as `a.b`; anything that could be misread (dots, spaces) is quoted.
const PLAIN = /^[A-Za-z0-9_$-]+$/;

/** Formats a key path for messages: `mcpServers.files.args[0]`, `headers["X.Y"]`. */
export function formatPath(at: KeyPath): string {
  if (at.length === 0) return "the config";
  let out = "";
  for (const part of at) {
    if (typeof part === "number") out += `[${part}]`;
    else if (PLAIN.test(part)) out += out === "" ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
