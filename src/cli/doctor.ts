/**
 * `mcpx doctor`: what is installed and configured, what is broken and what to do about it,
 * without starting a server. Exit 0 when nothing failed, 1 otherwise (warnings do not fail).
 */
import { stateDir } from "../broker/state-path.js";
import { ConfigError } from "../config/errors.js";
import type { Config } from "../config/types.js";
import { type Check, daemonCheck, runtimeCheck, serverChecks, stateChecks } from "./doctor-checks.js";
import { Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";

const MARKS: Record<Check["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", info: "    " };

export async function doctor(loadConfig: () => Promise<Config>, options: { json?: boolean }): Promise<number> {
  const dir = stateDir();
  const checks: Check[] = [runtimeCheck()];
  const config = await loadConfig().catch((error: unknown) => {
    if (!(error instanceof ConfigError) && !(error instanceof Error)) throw error;
    checks.push({
      name: "config",
      status: "fail",
      detail: error.message,
      fix: "fix the file as the message says (mcpx doctor reads the same file mcpx serve would)",
    });
    return undefined;
  });
  if (config) {
    const enabled = config.servers.filter((server) => !server.disabled).length;
    checks.push({
      name: "config",
      status: "ok",
      detail: `${config.file}: ${enabled} server${enabled === 1 ? "" : "s"}${config.servers.length > enabled ? ` (${config.servers.length - enabled} disabled)` : ""}`,
    });
    for (const left of config.leftOut ?? [])
      if (!left.disabled) checks.push({ name: `server "${left.name}"`, status: "warn", detail: `left out: ${left.why}` });
    checks.push(...serverChecks(config, dir));
  }
  checks.push(...(await stateChecks(dir, config?.store?.url)));
  if (config) checks.push(daemonCheck(dir, config.file));
  if (options.json) process.stdout.write(`${inertJson(JSON.stringify(checks, null, 2))}\n`);
  else
    for (const check of checks)
      process.stdout.write(`${MARKS[check.status]}  ${inert(check.name)}: ${inert(check.detail)}${check.fix ? `\n      → ${inert(check.fix)}` : ""}\n`);
  return checks.some((check) => check.status === "fail") ? Exit.Error : Exit.Ok;
}
