import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn processes and bind ports; two cores do not like many at once.
    maxWorkers: 2,
    // A worker runs its test files one after another without a fresh process each: the packages
    // every file imports (the SDKs, ajv, TypeScript) load once per worker, not once per file
    // (src/ and test/ modules are still evaluated afresh for each file). Measured on 43 files:
    // 97 -> 60 CPU seconds, 167 -> 96 s.
    isolate: false,
    // Commands run in-process, as `--no-daemon`: no test leaves a daemon behind. The daemon's own
    // tests (test/cli/daemon*.test.ts, test/broker-e2e/daemon-call.test.ts) take it out.
    env: { MCPX_NO_DAEMON: "1" },
  },
});
