// The whole server suite of conformance 0.2.0-alpha.12 (`--suite all`, Node 22: the 2025 scenarios
// and the 2026-07-28 ones) against a server that speaks both eras (test/fixtures/
// conformance-dual-server.mjs, SDK 2.x), directly and through `mcpx serve --http` (passthrough,
// `elicitation.mode: "host"`), with mcpx reaching the server over Streamable HTTP and over stdio.
// The suite's 2025 scenarios come as legacy hosts and its 2026-07-28 ones as modern hosts, so
// mcpx must follow each caller's era: a server that asks mid-call the 2025 way can ask only over
// a legacy connection (issue 13, item 12), and a legacy host's resources/subscribe must be
// answered (item 13). Every check that passes directly passes through mcpx; only the tasks
// extension (SEP-2663, not implemented by the SDK nor by mcpx) fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, runServerSuite, startFixture, SUITE_2026, type SuiteResult } from "../helpers/conformance.js";
import { fixture as fixturePath, type RunningMcpx, startMcpxHttp, writeConfig } from "../helpers/mcpx.js";

const SUITE_TIMEOUT_MS = 200_000;
const DUAL_FIXTURE_PATH = fixturePath("conformance-dual-server.mjs");

/** Directly: every check but the tasks extension's passes. */
const DIRECT = { passed: 205, failed: 27 };
/**
 * Through mcpx, one pass fewer: server-sse-polling's disconnect-resume. The fixture's
 * test_reconnection closes its response stream mid-call (SEP-1699 polling, a MAY); mcpx resumes
 * that stream itself, so the host's stream is never broken and the answer arrives on it, which the
 * suite reports as information ("server did not disconnect mid-call"), not as a failure. Closing
 * the host's stream only so it reconnects would add a round trip and a way to lose the answer.
 * And two passes more, of the tasks extension, which mcpx answers itself though the fixture does
 * not serve it (host/tasks/modern-methods.ts): tasks/get, tasks/update and tasks/cancel without the
 * extension declared are -32021, and tasks/get of an unknown task is -32602.
 */
const THROUGH = { passed: 206, failed: 25 };
const NOT_PASSED_THROUGH_MCPX = ["server-sse-polling server-sse-disconnect-resume SUCCESS"];
/** The 2025 scenarios that need a legacy connection to a server that asks the 2025 way, or a legacy subscribe. */
const FOLLOWING_THE_CALLER = [
  "tools-call-elicitation",
  "tools-call-sampling",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "tools-call-with-logging",
  "resources-subscribe",
  "resources-unsubscribe",
];

const successes = (suite: SuiteResult): string[] => suite.verdicts.filter((verdict) => verdict.endsWith(" SUCCESS"));
const failuresOutsideTasks = (suite: SuiteResult): string[] =>
  suite.verdicts.filter((verdict) => verdict.endsWith(" FAILURE") && !verdict.startsWith("tasks-"));

/** The SUCCESS verdicts of `direct` missing from `through`, counted (a check id can repeat within a scenario). */
function lostSuccesses(direct: SuiteResult, through: SuiteResult): string[] {
  const left = new Map<string, number>();
  for (const verdict of successes(through)) left.set(verdict, (left.get(verdict) ?? 0) + 1);
  return successes(direct).filter((verdict) => {
    const count = left.get(verdict) ?? 0;
    left.set(verdict, count - 1);
    return count <= 0;
  });
}

describe.skipIf(SUITE_2026.unavailable !== undefined)(`conformance --suite all, a dual-era server, direct and through mcpx: ${SUITE_2026.label}`, () => {
  let fixture: Fixture | undefined;
  let direct: SuiteResult;
  /** The runs through mcpx (each starts its mcpx), started with the direct run. */
  const throughRuns: Array<() => Promise<void>> = [];
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    fixture = await startFixture("http", DUAL_FIXTURE_PATH);
    // The three runs share nothing but the fixture, which gives each host a session of its own;
    // each waits mostly on its scenarios, so they run at once.
    [direct] = await Promise.all([runServerSuite(fixture.url, { suite: "all", runner: SUITE_2026 }), ...throughRuns.map((run) => run())]);
  }, SUITE_TIMEOUT_MS);

  afterAll(async () => {
    for (const close of closers) await close();
    await fixture?.close();
  });

  it(`directly: ${DIRECT.passed} passed, ${DIRECT.failed} failed, every failure in the tasks extension`, () => {
    expect({ passed: direct.passed, failed: direct.failed }).toEqual(DIRECT);
    expect(failuresOutsideTasks(direct)).toEqual([]);
    for (const name of FOLLOWING_THE_CALLER) expect(direct.scenarios[name]?.failures, name).toEqual([]);
  });

  const throughMcpx = (title: string, upstream: () => object): void => {
    let mcpx: (RunningMcpx & { url: URL }) | undefined;
    let through: SuiteResult;
    throughRuns.push(async () => {
      const config = { mcpServers: { conf: { ...upstream(), passthrough: true } }, elicitation: { mode: "host" } };
      const starting = startMcpxHttp(writeConfig(config));
      // Its closer is in before it is up: when the direct run fails first, beforeAll ends and afterAll still stops it.
      closers.push(async () => (await starting.catch(() => undefined))?.close());
      mcpx = await starting;
      through = await runServerSuite(mcpx.url.href, { suite: "all", runner: SUITE_2026 });
    });
    describe(title, () => {
      it("runs the same scenarios", () => {
        expect(Object.keys(through.scenarios).sort()).toEqual(Object.keys(direct.scenarios).sort());
      });

      it("every check that passes directly passes through mcpx, but the SEP-1699 disconnect mcpx does not pass on", () => {
        const why = lostSuccesses(direct, through)
          .filter((verdict) => !NOT_PASSED_THROUGH_MCPX.includes(verdict))
          .map((verdict) => {
            const [scenario] = verdict.split(" ");
            return `${verdict} -> ${(through.scenarios[scenario ?? ""]?.failures.join(" | ") ?? "(scenario missing)").slice(0, 300)}`;
          });
        expect(why, mcpx?.stderr().slice(-3000)).toEqual([]);
        expect(lostSuccesses(direct, through)).toEqual(NOT_PASSED_THROUGH_MCPX);
      });

      it(`${THROUGH.passed} passed, ${THROUGH.failed} failed, no failure outside the tasks extension`, () => {
        expect(failuresOutsideTasks(through)).toEqual([]);
        expect({ passed: through.passed, failed: through.failed }).toEqual(THROUGH);
      });

      it("the 2025 scenarios that need the caller's era, and the priming event, pass as directly", () => {
        for (const name of FOLLOWING_THE_CALLER) expect({ name, failures: through.scenarios[name]?.failures }).toEqual({ name, failures: [] });
        const polling = through.verdicts.filter((verdict) => verdict.startsWith("server-sse-polling "));
        expect(polling).toEqual(["server-sse-polling server-sse-priming-event SUCCESS", "server-sse-polling server-sse-retry-field SUCCESS"]);
      });
    });
  };

  throughMcpx("HTTP host, HTTP upstream", () => ({ url: fixture!.url }));
  throughMcpx("HTTP host, stdio upstream", () => ({ command: process.execPath, args: [DUAL_FIXTURE_PATH, "--stdio"] }));
});
