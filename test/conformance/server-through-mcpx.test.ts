// The official conformance suite's active server scenarios, run against `mcpx serve --http` in
// front of the conformance fixture (passthrough, so names are unprefixed as the suite expects).
// Every scenario that passes against the fixture directly must pass through mcpx, whether mcpx
// reaches the fixture over Streamable HTTP (attribution by the upstream's HTTP stream) or over
// stdio (attribution by "the only call in flight": the suite runs its scenarios one at a time).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVE_SERVER_SCENARIOS, FIXTURE_PATH, type Fixture, runServerSuite, startFixture, type SuiteResult } from "../helpers/conformance.js";
import { type RunningMcpx, startMcpxHttp, writeConfig } from "../helpers/mcpx.js";

const SUITE_TIMEOUT_MS = 200_000;

let fixture: Fixture | undefined;
let direct: SuiteResult;

beforeAll(async () => {
  fixture = await startFixture("http");
  direct = await runServerSuite(fixture.url);
}, SUITE_TIMEOUT_MS);

afterAll(async () => {
  await fixture?.close();
});

/** Scenarios with at least one pass and no failure. */
function passing(suite: SuiteResult): string[] {
  return Object.entries(suite.scenarios)
    .filter(([, result]) => result.failed === 0 && result.passed > 0)
    .map(([name]) => name)
    .sort();
}

function describeThroughMcpx(title: string, upstream: () => object): void {
  describe(title, () => {
    let mcpx: (RunningMcpx & { url: URL }) | undefined;
    let through: SuiteResult;

    beforeAll(async () => {
      mcpx = await startMcpxHttp(writeConfig({ mcpServers: { conf: { ...upstream(), passthrough: true } } }));
      through = await runServerSuite(mcpx.url.href);
    }, SUITE_TIMEOUT_MS);

    afterAll(async () => {
      await mcpx?.close();
    });

    it("runs exactly the active suite", () => {
      expect(Object.keys(through.scenarios).sort()).toEqual([...ACTIVE_SERVER_SCENARIOS].sort());
    });

    it("passes every scenario that passes against the fixture directly", () => {
      const directPassing = passing(direct);
      expect(directPassing.length).toBeGreaterThan(0);
      expect(directPassing.filter((name) => !passing(through).includes(name))).toEqual([]);
    });

    it.each(ACTIVE_SERVER_SCENARIOS)("%s: 0 failures, at least one pass", (name) => {
      const result = through.scenarios[name];
      expect(result, `no checks.json for ${name}`).toBeDefined();
      expect(result?.failures, mcpx?.stderr().slice(-3000)).toEqual([]);
      expect(result?.failed).toBe(0);
      expect(result?.passed).toBeGreaterThan(0);
    });
  });
}

describeThroughMcpx("conformance through mcpx: HTTP host, HTTP upstream", () => ({ url: fixture!.url }));

describeThroughMcpx("conformance through mcpx: HTTP host, stdio upstream", () => ({
  command: process.execPath,
  args: [FIXTURE_PATH, "--stdio"],
}));
