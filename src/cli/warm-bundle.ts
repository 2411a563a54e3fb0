/**
 * The warm path of a line main.ts reads itself (call-line.ts, exec-line.ts): from main.cjs,
 * the command's one CommonJS bundle beside it (scripts/bundle-cold.mjs), required, so no ES
 * module loader starts; as tsc wrote it (no bundle, or main.js run itself), `unbundled`.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export async function warmBundle<T>(name: string, unbundled: () => Promise<T>): Promise<T> {
  const bundled = import.meta.url.endsWith(".cjs") ? fileURLToPath(new URL(`./${name}`, import.meta.url)) : undefined;
  return bundled && existsSync(bundled) ? (createRequire(import.meta.url)(bundled) as T) : unbundled();
}
