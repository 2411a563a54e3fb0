// The official conformance suite's server scenarios, `--suite all` (the 30 active ones and the
// pending json-schema-2020-12 and server-sse-polling), run against `mcpx serve --http` in front of
// the conformance fixture (passthrough, so names are unprefixed as the suite expects), for 0.1.13
// on the Node running the tests and for the newest 0.1.x on Node 22. Every check must come out
// through mcpx exactly as it does against the fixture directly (the same passes, warnings and
// failures), but for the priming event and retry field mcpx's streams carry, whether mcpx reaches the fixture over Streamable HTTP
// (attribution by the upstream's HTTP stream; server-sse-polling's tool closes mcpx's own stream
// mid-call, so mcpx resumes it with Last-Event-ID) or over stdio (attribution by "the only call
// in flight": the suite runs its scenarios one at a time).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * server-sse-polling's two SHOULDs (SEP-1699), which the suite only warns about directly: the
 * SDK 1.x fixture primes by the POST's MCP-Protocol-Version header, which 0.1.x sends as
 * 2025-03-26, while mcpx primes by the session's revision (2025-11-25), so they pass through it.
 */
const PRIMING_CHECKS = ["server-sse-polling server-sse-priming-event", "server-sse-polling server-sse-retry-field"];
const primed = (verdicts: string[]): string[] =>
  verdicts.map((verdict) => (PRIMING_CHECKS.some((check) => verdict === `${check} WARNING`) ? verdict.replace(/ WARNING$/, " SUCCESS") : verdict)).sort();
import {
  ALL_SERVER_SCENARIOS,
  type ConformanceRunner,
  FIXTURE_PATH,
  type Fixture,
  runServerSuite,
  startFixture,
  SUITE_0_1_13,
  SUITE_NEWEST,
  type SuiteResult,
} from "../helpers/conformance.js";
import { type RunningMcpx, startMcpxHttp, writeConfig } from "../helpers/mcpx.js";

const SUITE_TIMEOUT_MS = 200_000;

function describeRunner(runner: ConformanceRunner): void {
  describe.skipIf(runner.unavailable !== undefined)(`conformance --suite all through mcpx: ${runner.label}`, () => {
    let fixture: Fixture | undefined;
    let direct: SuiteResult;
    /** The runs through mcpx (each starts its mcpx), started with the direct run. */
    const throughRuns: Array<() => Promise<void>> = [];
    const closers: Array<() => Promise<void>> = [];

    beforeAll(async () => {
      fixture = await startFixture("http");
      // The three runs share nothing but the fixture, which gives each host a session of its own;
      // each waits mostly on its scenarios, so they run at once.
      [direct] = await Promise.all([runServerSuite(fixture.url, { suite: "all", runner }), ...throughRuns.map((run) => run())]);
    }, SUITE_TIMEOUT_MS);

    afterAll(async () => {
      for (const close of closers) await close();
      await fixture?.close();
    });

    const throughMcpx = (title: string, upstream: () => object): void => {
      let mcpx: (RunningMcpx & { url: URL }) | undefined;
      let through: SuiteResult;
      throughRuns.push(async () => {
        const starting = startMcpxHttp(writeConfig({ mcpServers: { conf: { ...upstream(), passthrough: true } } }));
        // Its closer is in before it is up: when the direct run fails first, beforeAll ends and afterAll still stops it.
        closers.push(async () => (await starting.catch(() => undefined))?.close());
        mcpx = await starting;
        through = await runServerSuite(mcpx.url.href, { suite: "all", runner });
      });
      describe(title, () => {
        it("runs exactly the 32 scenarios of --suite all", () => {
          expect(Object.keys(through.scenarios).sort()).toEqual([...ALL_SERVER_SCENARIOS].sort());
        });

        it("every check passes, warns and fails as it does against the fixture directly, but mcpx primes its streams", () => {
          expect(direct.passed).toBeGreaterThan(0);
          expect(through.verdicts, mcpx?.stderr().slice(-3000)).toEqual(primed(direct.verdicts));
          expect({ passed: through.passed, failed: through.failed }).toEqual({ passed: direct.passed + PRIMING_CHECKS.length, failed: direct.failed });
        });

        it.each(ALL_SERVER_SCENARIOS)("%s: 0 failures, and as many passes as directly", (name) => {
          const result = through.scenarios[name];
          expect(result, `no checks.json for ${name}`).toBeDefined();
          expect(result?.failures, mcpx?.stderr().slice(-3000)).toEqual([]);
          expect(result?.passed).toBe((direct.scenarios[name]?.passed ?? 0) + (name === "server-sse-polling" ? PRIMING_CHECKS.length : 0));
        });
      });
    };

    throughMcpx("HTTP host, HTTP upstream", () => ({ url: fixture!.url }));
    throughMcpx("HTTP host, stdio upstream", () => ({ command: process.execPath, args: [FIXTURE_PATH, "--stdio"] }));
  });
}

describeRunner(SUITE_0_1_13);
describeRunner(SUITE_NEWEST);
