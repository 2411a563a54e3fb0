// The 2026-07-28 server scenarios of conformance 0.2.0-alpha.12 (`--requirements 2026-07-28`,
// Node 22) run against `mcpx serve --http` in front of the modern conformance fixture
// (test/fixtures/conformance-modern-server.mjs, SDK 2.x; passthrough, so names are unprefixed as
// the suite expects), once with mcpx reaching the fixture over Streamable HTTP and once over
// stdio. Every check that passes against the fixture directly must pass through mcpx: the
// SUCCESS verdicts directly are a subset of those through mcpx (mcpx may pass more, e.g. a check
// the fixture fails that mcpx answers itself). The direct baseline is
// test/conformance-modern-direct.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Fixture,
  MODERN_FIXTURE_PATH,
  NOT_SCORED_SERVER_SCENARIOS_2026,
  runServerSuite,
  SERVER_SCENARIOS_2026,
  startFixture,
  SUITE_2026,
  type SuiteResult,
} from "../helpers/conformance.js";
import { type RunningMcpx, startMcpxHttp, writeConfig } from "../helpers/mcpx.js";

const SUITE_TIMEOUT_MS = 200_000;
const ALL_SCENARIOS = [...SERVER_SCENARIOS_2026, ...NOT_SCORED_SERVER_SCENARIOS_2026];

const successes = (suite: SuiteResult): string[] => suite.verdicts.filter((verdict) => verdict.endsWith(" SUCCESS"));

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

describe.skipIf(SUITE_2026.unavailable !== undefined)(`conformance --requirements 2026-07-28 through mcpx: ${SUITE_2026.label}`, () => {
  let fixture: Fixture | undefined;
  let direct: SuiteResult;
  /** The runs through mcpx (each starts its mcpx), started with the direct run. */
  const throughRuns: Array<() => Promise<void>> = [];
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    fixture = await startFixture("http", MODERN_FIXTURE_PATH);
    // The three runs share nothing but the fixture, which gives each host a session of its own;
    // each waits mostly on its scenarios, so they run at once.
    [direct] = await Promise.all([runServerSuite(fixture.url, { requirements: "2026-07-28", runner: SUITE_2026 }), ...throughRuns.map((run) => run())]);
  }, SUITE_TIMEOUT_MS);

  afterAll(async () => {
    for (const close of closers) await close();
    await fixture?.close();
  });

  const throughMcpx = (title: string, upstream: () => object): void => {
    let mcpx: (RunningMcpx & { url: URL }) | undefined;
    let through: SuiteResult;
    throughRuns.push(async () => {
      // elicitation.mode "host": as on a direct connection, a question the host cannot take is
      // not held for people (mcpx's default): a modern host gets -32021, which server-stateless
      // checks for (docs/protocol.md, "Conformance").
      const config = { mcpServers: { conf: { ...upstream(), passthrough: true } }, elicitation: { mode: "host" } };
      const starting = startMcpxHttp(writeConfig(config));
      // Its closer is in before it is up: when the direct run fails first, beforeAll ends and afterAll still stops it.
      closers.push(async () => (await starting.catch(() => undefined))?.close());
      mcpx = await starting;
      through = await runServerSuite(mcpx.url.href, { requirements: "2026-07-28", runner: SUITE_2026 });
    });
    describe(title, () => {
      it("runs the 37 scored and 13 not-scored server scenarios", () => {
        expect(Object.keys(through.scenarios).sort()).toEqual([...ALL_SCENARIOS].sort());
      });

      it("every check that passes directly passes through mcpx", () => {
        expect(successes(direct).length).toBeGreaterThan(0);
        // Each lost check with its scenario's failures through mcpx (cut short), to say why.
        const why = lostSuccesses(direct, through).map((verdict) => {
          const [scenario] = verdict.split(" ");
          const failures = through.scenarios[scenario ?? ""]?.failures.join(" | ") ?? "(scenario missing)";
          return `${verdict} -> ${failures.slice(0, 300)}`;
        });
        expect(why, mcpx?.stderr().slice(-3000)).toEqual([]);
      });

      it.each([...SERVER_SCENARIOS_2026])("%s: as many passes as directly, no more failures", (name) => {
        const result = through.scenarios[name];
        expect(result, `no checks.json for ${name}`).toBeDefined();
        expect(result?.failures).toEqual(direct.scenarios[name]?.failures);
        expect(result?.passed).toBeGreaterThanOrEqual(direct.scenarios[name]?.passed ?? 0);
      });
    });
  };

  throughMcpx("HTTP host, HTTP upstream", () => ({ url: fixture!.url }));
  throughMcpx("HTTP host, stdio upstream", () => ({ command: process.execPath, args: [MODERN_FIXTURE_PATH, "--stdio"] }));
});
