// Baseline: the conformance fixture, with no gateway in between, passes every scenario of the
// official suite's active server suite. Gateway conformance tests compare against this.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVE_SERVER_SCENARIOS, type Fixture, runServerSuite, startFixture, type SuiteResult } from "./helpers/conformance.js";

describe("conformance fixture, direct (no gateway)", () => {
  let fixture: Fixture | undefined;
  let suite: SuiteResult;

  beforeAll(async () => {
    fixture = await startFixture("http");
    suite = await runServerSuite(fixture.url);
  }, 200_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("runs exactly the active suite", () => {
    expect(Object.keys(suite.scenarios).sort()).toEqual([...ACTIVE_SERVER_SCENARIOS].sort());
  });

  it.each(ACTIVE_SERVER_SCENARIOS)("%s passes with 0 failures", (name) => {
    const result = suite.scenarios[name];
    expect(result, `no checks.json for ${name}`).toBeDefined();
    expect(result?.failures).toEqual([]);
    expect(result?.failed).toBe(0);
    expect(result?.passed).toBeGreaterThan(0);
  });
});
