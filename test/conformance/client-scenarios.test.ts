// mcpx as the client under the official conformance suite's client scenarios: the harness starts
// a mock MCP server and runs `mcpx-client.mjs <url>`, which points mcpx at it as an upstream.
// - initialize: mcpx's handshake offers a revision the mock accepts and names itself.
// - tools_call: `mcpx call` reaches the tool with the right arguments.
// - sse-retry: mcpx's Streamable HTTP channel resumes a closed call stream with GET and
//   Last-Event-ID after exactly the server's `retry` interval (450–700 ms for 500).
// Runs inside a private network namespace when the machine allows (see runClientScenario).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { privateNetworkAvailable, runClientScenario } from "../helpers/conformance.js";
import { ROOT } from "../helpers/mcpx.js";

const CLIENT_COMMAND = `${process.execPath} ${path.join(ROOT, "test", "conformance", "mcpx-client.mjs")}`;

/** The checks each scenario must report; every one must be SUCCESS (a WARNING fails client mode). */
const SCENARIOS: Record<string, string[]> = {
  initialize: ["mcp-client-initialization"],
  tools_call: ["tool-add-numbers"],
  "sse-retry": ["client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"],
};

/** Generous: on a loaded 2-core machine starting node and mcpx alone can take seconds. */
const CLIENT_TIMEOUT_MS = 60_000;

const isolation = privateNetworkAvailable() ? "in a private network namespace" : "directly (no user namespaces)";

describe(`conformance client scenarios with mcpx as the client, ${isolation}`, () => {
  it.each(Object.keys(SCENARIOS))(
    "%s passes every check and exits 0",
    async (scenario) => {
      const run = await runClientScenario(scenario, CLIENT_COMMAND, { clientTimeoutMs: CLIENT_TIMEOUT_MS });
      const judged = run.checks.filter((check) => check.status !== "INFO");
      expect(judged.map((check) => check.id).sort(), run.stderr).toEqual([...SCENARIOS[scenario]!].sort());
      expect(
        judged.filter((check) => check.status !== "SUCCESS"),
        run.stderr,
      ).toEqual([]);
      expect(run.exitCode, run.stderr).toBe(0);
    },
    CLIENT_TIMEOUT_MS + 30_000,
  );
});
