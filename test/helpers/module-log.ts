/**
 * An mcpx command run with every module it loads listed, by the preload
 * test/fixtures/module-log.mjs: what the hot and warm paths' tests check it loads (and not).
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fixture, MCPX_BIN, type TempConfig } from "./mcpx.js";

export interface LoggedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Each module loaded, as the preload names it (`file://…`, `cjs:…`, `node:…`), in load order. */
  modules: string[];
}

export function runLogged(args: readonly string[], config: TempConfig, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<LoggedRun> {
  const log = join(config.dir, "modules.log");
  rmSync(log, { force: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", fixture("module-log.mjs"), MCPX_BIN, ...args],
      { env: { ...config.env, MCPX_MODULE_LOG: log, ...options.env }, timeout: options.timeoutMs ?? 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        resolve({ code, stdout, stderr, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) });
      },
    );
  });
}
