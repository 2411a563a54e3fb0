// Helpers for running the official MCP conformance suite (@modelcontextprotocol/conformance
// 0.1.13, the last release that runs on Node 20) from vitest.
// Background: /work/shared/reference/conformance.md.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The conformance CLI entry point, run with `process.execPath`. */
export const CONFORMANCE_CLI = path.join(path.dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");

/** The upstream fixture that implements every server scenario. */
export const FIXTURE_PATH = fileURLToPath(new URL("../fixtures/conformance-server.mjs", import.meta.url));

/** The 30 scenarios of `--suite active` in 0.1.13 (all 32 minus pending json-schema-2020-12 and server-sse-polling). */
export const ACTIVE_SERVER_SCENARIOS = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
] as const;

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "INFO";

/** One entry of a `checks.json` file (only the fields we use). */
export interface Check {
  id: string;
  name: string;
  status: CheckStatus | string;
  description?: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  passed: number;
  failed: number;
  warnings: number;
  /** `"<check name>: <errorMessage>"` for every FAILURE check. */
  failures: string[];
}

export interface SuiteResult {
  scenarios: Record<string, ScenarioResult>;
}

export interface Fixture {
  url: string;
  close(): Promise<void>;
}

export interface ClientScenarioResult {
  exitCode: number;
  checks: Array<{ id: string; status: string; errorMessage?: string }>;
  /** The CLI's stderr (check table and verdict), followed by the client's own stderr.txt if any. */
  stderr: string;
}

const FIXTURE_START_TIMEOUT_MS = 10_000;
const SERVER_SUITE_TIMEOUT_MS = 180_000;
/** Beyond the client's own time limit: the harness's start-up, mock server and report. */
const CLIENT_SCENARIO_TIMEOUT_MS = 60_000;

/** Start the conformance fixture over Streamable HTTP on 127.0.0.1 and wait for its LISTENING line. */
export async function startFixture(mode: "http"): Promise<Fixture> {
  const child = spawn(process.execPath, [FIXTURE_PATH, `--${mode}`], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      const fail = (why: string): void => {
        clearTimeout(timer);
        lines.close();
        reject(new Error(`conformance fixture ${why}\n${stderr}`));
      };
      const timer = setTimeout(() => fail(`did not print LISTENING within ${FIXTURE_START_TIMEOUT_MS} ms`), FIXTURE_START_TIMEOUT_MS);
      lines.on("line", (line) => {
        const match = /^LISTENING (http:\/\/\S+)$/.exec(line);
        if (!match?.[1]) return;
        clearTimeout(timer);
        lines.close();
        resolve(match[1]);
      });
      child.once("error", (error) => fail(`failed to spawn: ${error.message}`));
      child.once("exit", (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
    });
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Run `conformance server --url <url>` (the active suite, or one scenario) and parse every checks.json. */
export async function runServerSuite(url: string, options: { scenario?: string } = {}): Promise<SuiteResult> {
  const selector = options.scenario ? ["--scenario", options.scenario] : ["--suite", "active"];
  return withTempDir(async (outDir) => {
    const run = await runCli(["server", "--url", url, ...selector, "-o", outDir], SERVER_SUITE_TIMEOUT_MS);
    const scenarios: Record<string, ScenarioResult> = {};
    for (const file of await findChecksFiles(outDir)) {
      // Directory name: server-<scenario>-<ISO timestamp with ':' and '.' replaced by '-'>
      const dir = path.basename(path.dirname(file));
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1] ?? dir;
      scenarios[scenario] = summarize(await readChecks(file));
    }
    if (Object.keys(scenarios).length === 0) {
      throw new Error(`conformance server wrote no checks.json (exit ${run.exitCode})\n${run.stdout}\n${run.stderr}`);
    }
    return { scenarios };
  });
}

/**
 * Run `conformance client --command <command> --scenario <scenario>`: the harness starts a mock
 * server and runs `command <mock-url>` through /bin/sh.
 *
 * The harness's mock servers call `listen(0)` without a host, so they bind ALL interfaces for
 * the few seconds a scenario runs. Where user namespaces are available we therefore run the
 * harness (and so the client it spawns) inside `unshare -rn`, a private network namespace whose
 * only interface is loopback; where they are not (some CI containers) we fall back to running it
 * directly, accepting short-lived mock servers that only answer MCP test traffic.
 */
export async function runClientScenario(scenario: string, command: string, options: { clientTimeoutMs?: number } = {}): Promise<ClientScenarioResult> {
  // The harness's own limit on the client process (its default is 30 s); ours comes on top.
  const clientTimeoutMs = options.clientTimeoutMs ?? 30_000;
  return withTempDir(async (outDir) => {
    const args = ["client", "--command", command, "--scenario", scenario, "--timeout", String(clientTimeoutMs), "-o", outDir];
    const run = await runCli(args, clientTimeoutMs + CLIENT_SCENARIO_TIMEOUT_MS, { isolateNetwork: privateNetworkAvailable() });
    const [file] = await findChecksFiles(outDir);
    const checks = file
      ? (await readChecks(file)).map(({ id, status, errorMessage }) => (errorMessage === undefined ? { id, status } : { id, status, errorMessage }))
      : [];
    const clientStderr = file ? await readFile(path.join(path.dirname(file), "stderr.txt"), "utf8").catch(() => "") : "";
    const stderr = clientStderr ? `${run.stderr}\n--- client stderr ---\n${clientStderr}` : run.stderr;
    return { exitCode: run.exitCode, checks, stderr };
  });
}

function summarize(checks: Check[]): ScenarioResult {
  const count = (status: CheckStatus): number => checks.filter((c) => c.status === status).length;
  return {
    passed: count("SUCCESS"),
    failed: count("FAILURE"),
    warnings: count("WARNING"),
    failures: checks.filter((c) => c.status === "FAILURE").map((c) => `${c.name}: ${c.errorMessage ?? c.description ?? "(no message)"}`),
  };
}

async function readChecks(file: string): Promise<Check[]> {
  const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected an array of checks`);
  return parsed as Check[];
}

async function findChecksFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => path.basename(entry) === "checks.json").map((entry) => path.join(dir, entry));
}

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "mcpx-conformance-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

let privateNetwork: boolean | undefined;

/** Whether `unshare -rn` can give us a network namespace with loopback up (checked once). */
export function privateNetworkAvailable(): boolean {
  privateNetwork ??= spawnSync("unshare", ["-rn", "sh", "-c", "ip link set lo up"], { stdio: "ignore", timeout: 5_000 }).status === 0;
  return privateNetwork;
}

/** Run the conformance CLI; on timeout kill its whole process group (it may have spawned a client). */
function runCli(args: string[], timeoutMs: number, options: { isolateNetwork?: boolean } = {}): Promise<CliRun> {
  // In a private network namespace loopback starts down; bring it up, then exec the CLI (same pid).
  const [file, argv]: [string, string[]] = options.isolateNetwork
    ? ["unshare", ["-rn", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', process.execPath, CONFORMANCE_CLI, ...args]]
    : [process.execPath, [CONFORMANCE_CLI, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // own process group, so a timeout can kill the harness and its client together
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new Error(`conformance ${args[0]} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
      } else {
        resolve({ exitCode: code ?? (signal ? 128 : 1), stdout, stderr });
      }
    });
  });
}
