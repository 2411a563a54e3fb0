// mcpx as the OAuth client of an upstream under every client `auth/*` scenario of the official
// conformance suite, in the three releases mcpx is held to (issue 16): 0.1.13 (Node 20), the
// newest 0.1.x and 0.2.0-alpha.12 (Node 22). The harness starts a mock MCP server and
// authorization server(s) and runs `mcpx-client.mjs <url>`, which configures the upstream's
// `oauth` entry from the harness's context as a user would and runs `mcpx call`, a "person"
// consenting to the sign-in question and opening its URL. Each scenario must report every check
// of client-auth-checks.json as SUCCESS, none other than SUCCESS or INFO, and the harness must
// pass it. Scenarios where the client is meant to stop with an error (auth/resource-mismatch,
// auth/scope-retry-limit, the iss-* refusals) pass exactly so: the harness judges that.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ConformanceRunner,
  listClientScenarios,
  privateNetworkAvailable,
  runClientScenario,
  SUITE_0_1_13,
  SUITE_2026,
  SUITE_NEWEST,
} from "../helpers/conformance.js";
import { ROOT } from "../helpers/mcpx.js";

const CLIENT_COMMAND = `${process.execPath} ${path.join(ROOT, "test", "conformance", "mcpx-client.mjs")}`;

/** Per release, per scenario: the checks it must report as SUCCESS. */
const EXPECTED = JSON.parse(readFileSync(new URL("./client-auth-checks.json", import.meta.url), "utf8")) as Record<string, Record<string, string[]>>;

/**
 * `npm test` runs the newest release's 33 scenarios; MCPX_CONFORMANCE_AUTH=all runs the older
 * releases' 41 too (`npm run test:auth-conformance`). All 74 pass; the whole matrix is about four
 * minutes of CPU, a third of the suite's budget on two cores, for scenarios the newest release
 * mostly repeats.
 */
const ALL_RELEASES = process.env.MCPX_CONFORMANCE_AUTH === "all";
const SUITES: Array<{ runner: ConformanceRunner; version: string }> = [
  ...(ALL_RELEASES
    ? [
        { runner: SUITE_0_1_13, version: "0.1.13" },
        { runner: SUITE_NEWEST, version: "0.1.16" },
      ]
    : []),
  { runner: SUITE_2026, version: "0.2.0-alpha.12" },
];

/**
 * The alpha's scenarios that are not on the 2026-07-28 timeline (extensions, and the 2025-03-26
 * ones): the harness skips them at `--spec-version 2026-07-28`, so they run at its default.
 */
const OFF_THE_2026_TIMELINE = new Set([
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/enterprise-managed-authorization",
  "auth/dpop",
  "auth/dpop-nonce",
  "auth/wif-jwt-bearer",
]);

/** Scenarios at once: each starts a harness, mock servers, the wrapper and several mcpx processes. */
const AT_ONCE = 4;
/** The harness's limit on the client (a loaded 2-core machine starts node slowly). */
const CLIENT_TIMEOUT_MS = 90_000;
/** A test's own limit counts its wait for a slot too. */
const TEST_TIMEOUT_MS = 15 * 60_000;

const slot = limiter(AT_ONCE);
const isolation = privateNetworkAvailable() ? "in a private network namespace" : "directly (no user namespaces)";

for (const { runner, version } of SUITES) {
  const expected = EXPECTED[version] ?? {};
  describe.skipIf(runner.unavailable !== undefined)(
    `${runner.label}: client auth scenarios with mcpx as the client, ${isolation}${runner.unavailable ? ` (skipped: ${runner.unavailable})` : ""}`,
    () => {
      it("is the pinned suite, and every auth scenario it lists is run here", () => {
        expect(runner.version).toBe(version);
        const listed = listClientScenarios(runner).filter((scenario) => scenario.startsWith("auth/"));
        expect(listed.sort()).toEqual(Object.keys(expected).sort());
      });

      it.concurrent.each(Object.keys(expected))(
        "%s passes every check",
        async (scenario) => {
          const offTimeline = runner === SUITE_2026 && OFF_THE_2026_TIMELINE.has(scenario);
          const run = await slot(() =>
            runClientScenario(scenario, CLIENT_COMMAND, { clientTimeoutMs: CLIENT_TIMEOUT_MS, runner, ...(offTimeline ? { specVersion: false } : {}) }),
          );
          const judged = run.checks.filter((check) => check.status !== "INFO");
          expect(
            judged.filter((check) => check.status !== "SUCCESS"),
            run.stderr,
          ).toEqual([]);
          expect([...new Set(judged.map((check) => check.id))], run.stderr).toEqual(expect.arrayContaining(expected[scenario] ?? []));
          expect(run.exitCode, run.stderr).toBe(0);
        },
        TEST_TIMEOUT_MS,
      );
    },
  );
}

/** Runs at most `size` of the given tasks at a time, in the order they ask. */
function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
