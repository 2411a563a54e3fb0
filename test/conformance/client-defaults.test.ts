// The conformance client scenario `elicitation-sep1034-client-defaults` with mcpx as the client:
// the mock server's tool elicits a form whose every field (string, integer, number, enum,
// boolean) has a default, and checks that the accepted content carries each default. Nobody is
// at a terminal: `mcpx call` is answered by a policy rule `acceptDefaults` from its config
// (see mcpx-client.mjs), the way a person would configure mcpx to let such forms through.
// Runs inside a private network namespace when the machine allows (see runClientScenario).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { privateNetworkAvailable, runClientScenario } from "../helpers/conformance.js";
import { ROOT } from "../helpers/mcpx.js";

const CLIENT_COMMAND = `${process.execPath} ${path.join(ROOT, "test", "conformance", "mcpx-client.mjs")}`;
const SCENARIO = "elicitation-sep1034-client-defaults";
const CHECKS = ["string", "integer", "number", "enum", "boolean"].map((type) => `client-elicitation-sep1034-${type}-default`);

/** Generous: on a loaded 2-core machine starting node and mcpx alone can take seconds. */
const CLIENT_TIMEOUT_MS = 60_000;

const isolation = privateNetworkAvailable() ? "in a private network namespace" : "directly (no user namespaces)";

describe(`conformance client scenario ${SCENARIO} with mcpx as the client, ${isolation}`, () => {
  it(
    "a policy rule accepting defaults answers the form: every default check passes and mcpx exits 0",
    async () => {
      const run = await runClientScenario(SCENARIO, CLIENT_COMMAND, { clientTimeoutMs: CLIENT_TIMEOUT_MS });
      const judged = run.checks.filter((check) => check.status !== "INFO");
      expect(judged.map((check) => check.id).sort(), run.stderr).toEqual([...CHECKS].sort());
      expect(
        judged.filter((check) => check.status !== "SUCCESS"),
        run.stderr,
      ).toEqual([]);
      expect(run.exitCode, run.stderr).toBe(0);
    },
    CLIENT_TIMEOUT_MS + 30_000,
  );
});
