/**
 * The shared broker store suite (store-suite.ts) run on the default store: the state
 * directory's SQLite file, the second store another connection to the same file, as another
 * mcpx process on the machine opens it. The Redis run is redis-store.test.ts; what only SQLite does, sqlite-store.test.ts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { storeSuite } from "./store-suite.js";

storeSuite("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-sqlite-suite-"));
  return { store: SqliteStore.open(dir), second: async () => SqliteStore.open(dir) };
});
