// mcpx as the client of a 2026-07-28 upstream under the non-auth client requirements of
// conformance 0.2.0-alpha.12 (`--spec-version 2026-07-28`): the harness starts a mock server and
// runs `mcpx-client.mjs <url>`, which points mcpx at it as an upstream and runs mcpx commands.
// - tools_call: `mcpx call` reaches the tool with its arguments, every frame schema-valid.
// - request-metadata: the _meta envelope and MCP-Protocol-Version on every request; a -32022
//   naming 2026-07-28 on server/discover is answered by asking again in it.
// - sep-2322-client-request-state: input_required answered (a policy rule) and retried with
//   the byte-exact requestState (none when none came) and a new id; other calls stay clean.
// - http-standard-headers: Mcp-Method and Mcp-Name on every request (resources/read and
//   prompts/get by a host through `mcpx serve`).
// - http-custom-headers: x-mcp-header arguments in Mcp-Param-* headers, Base64 where unsafe.
// - http-invalid-tool-headers: tools with a wrong x-mcp-header are left out and never called.
// - json-schema-ref-no-deref: listing a schema with a network $ref fetches nothing.
// The auth/* requirements run in client-auth.test.ts.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { privateNetworkAvailable, runClientScenario, SUITE_2026 } from "../helpers/conformance.js";
import { ROOT } from "../helpers/mcpx.js";

const CLIENT_COMMAND = `${process.execPath} ${path.join(ROOT, "test", "conformance", "mcpx-client.mjs")}`;

/** The check ids each scenario must report (each at least once); every check must be SUCCESS but those below. */
const SCENARIOS: Record<string, string[]> = {
  tools_call: ["tool-add-numbers", "wire-schema-valid"],
  "request-metadata": [
    "sep-2575-http-client-sends-version-header",
    "sep-2575-client-populates-meta",
    "sep-2575-client-sends-client-info",
    "sep-2575-http-version-header-matches-meta",
    "sep-2575-client-declares-roots-capability",
    "sep-2575-client-declares-sampling-capability",
    "sep-2575-client-declares-elicitation-capability",
    "sep-2575-client-retry-supported-version",
  ],
  "sep-2322-client-request-state": [
    "sep-2322-client-request-state-echoed",
    "sep-2322-client-jsonrpc-id-different",
    "sep-2322-client-no-state-omitted",
    "sep-2322-client-parallel-isolation",
    "sep-2322-default-result-type-complete",
  ],
  "http-standard-headers": ["sep-2243-client-includes-standard-headers"],
  "http-custom-headers": [
    "sep-2243-client-supports-custom-headers",
    "sep-2243-client-mirrors-designated-params",
    "sep-2243-client-encode-values",
    "sep-2243-client-base64-unsafe",
    "sep-2243-client-omit-null",
  ],
  "http-invalid-tool-headers": [
    "sep-2243-client-reject-invalid-tool",
    "sep-2243-x-mcp-header-not-empty",
    "sep-2243-x-mcp-header-charset",
    "sep-2243-x-mcp-header-unique",
    "sep-2243-x-mcp-header-primitive-only",
  ],
  "json-schema-ref-no-deref": ["sep-2106-no-network-ref-deref"],
};

/**
 * The only checks that may be SKIPPED: the Mcp-Method header of `initialize` and
 * `notifications/initialized`, which a client speaking 2026-07-28 to a 2026-07-28 server never sends.
 */
const NOT_SENT_IN_2026 = new Set(["ClientMcpMethodHeader_initialize", "ClientMcpMethodHeader_notifications_initialized"]);

/** Generous: on a loaded 2-core machine starting node and mcpx alone can take seconds (some scenarios run a dozen). */
const CLIENT_TIMEOUT_MS = 90_000;

const isolation = privateNetworkAvailable() ? "in a private network namespace" : "directly (no user namespaces)";

describe.skipIf(SUITE_2026.unavailable !== undefined)(
  `${SUITE_2026.label}: 2026-07-28 client scenarios with mcpx as the client, ${isolation}${SUITE_2026.unavailable ? ` (skipped: ${SUITE_2026.unavailable})` : ""}`,
  () => {
    it("is the pinned suite", () => {
      expect(SUITE_2026.version).toBe("0.2.0-alpha.12");
    });

    it.each(Object.keys(SCENARIOS))(
      "%s passes every check and exits 0",
      async (scenario) => {
        const run = await runClientScenario(scenario, CLIENT_COMMAND, { clientTimeoutMs: CLIENT_TIMEOUT_MS, runner: SUITE_2026 });
        const judged = run.checks.filter((check) => check.status !== "INFO");
        expect([...new Set(judged.map((check) => check.id))].sort(), run.stderr).toEqual([...SCENARIOS[scenario]!].sort());
        expect(
          judged.filter((check) => check.status !== "SUCCESS" && !(check.status === "SKIPPED" && NOT_SENT_IN_2026.has(check.name))),
          run.stderr,
        ).toEqual([]);
        expect(run.exitCode, run.stderr).toBe(0);
      },
      CLIENT_TIMEOUT_MS + 30_000,
    );
  },
);
