/** Which config file a command uses: light on purpose, so a command can find it without loading the config readers. */
import path from "node:path";
import type { Env } from "./env.js";

/**
 * Which config file to use: `--config FILE`, else `$MCPX_CONFIG`, else `./mcpx.json`.
 * A relative choice is taken against `cwd`; the result keeps the person's spelling when that
 * means the same file from `process.cwd()`, so messages show the path they typed.
 */
export function findConfigPath(explicit?: string, env: Env = process.env, cwd: string = process.cwd()): string {
  const chosen = explicit || env.MCPX_CONFIG || "mcpx.json";
  const resolved = path.resolve(cwd, chosen);
  return path.resolve(chosen) === resolved ? chosen : resolved;
}
