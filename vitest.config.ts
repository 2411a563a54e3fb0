import { configDefaults, defineConfig } from "vitest/config";

const TESTS = ["test/**/*.test.ts", "src/**/*.test.ts"];
/** Files that replace a module with vi.mock: a fresh worker each, or the mock may not take (or leak). */
const MOCKING_MODULES = ["test/host/host-credential.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn processes and bind ports; two cores do not like many at once.
    maxWorkers: 2,
    // Commands run in-process, as `--no-daemon`: no test leaves a daemon behind. The daemon's own
    // tests (test/cli/daemon*.test.ts, test/broker-e2e/daemon-call.test.ts) take it out.
    env: { MCPX_NO_DAEMON: "1" },
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: TESTS,
          exclude: [...configDefaults.exclude, ...MOCKING_MODULES],
          // A worker runs its test files one after another in one process: the packages every
          // file imports (the SDKs, ajv, TypeScript) load once per worker, not once per file
          // (src/ and test/ modules are still evaluated afresh for each file). Measured on 43
          // files: 97 -> 60 CPU seconds, 167 -> 96 s.
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: MOCKING_MODULES } },
    ],
  },
});
