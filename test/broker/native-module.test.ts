/** The native-module error after a Node.js change says to run `npm rebuild`. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nativeModuleProblem } from "../../src/broker/sqlite/native-module.js";

/** What better-sqlite3 throws when it was built for Node 18 and runs on Node 20 (as Node words it). */
const MISMATCH = Object.assign(
  new Error(
    "The module '/home/ada/.npm-global/lib/node_modules/mcpx/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
      "was compiled against a different Node.js version using\nNODE_MODULE_VERSION 108. This version of Node.js requires\n" +
      "NODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
  ),
  { code: "ERR_DLOPEN_FAILED" },
);

describe("nativeModuleProblem", () => {
  it("turns a NODE_MODULE_VERSION mismatch into npm rebuild, in the install directory", async () => {
    const message = nativeModuleProblem(MISMATCH)!;
    expect(message).toContain("npm rebuild better-sqlite3");
    expect(message).toContain("in /home/ada/.npm-global/lib/node_modules/mcpx");
    expect(message).toContain(process.version);
  });

  it("recognises a real dlopen failure of better-sqlite3's module", async () => {
    const root = mkdtempSync(join(tmpdir(), "mcpx-native-"));
    const dir = join(root, "node_modules", "better-sqlite3", "build", "Release");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "better_sqlite3.node"), "not a shared object");
    let thrown: unknown;
    try {
      createRequire(import.meta.url)(join(dir, "better_sqlite3.node"));
    } catch (error) {
      thrown = error;
    }
    expect((thrown as { code?: string }).code).toBe("ERR_DLOPEN_FAILED");
    expect(nativeModuleProblem(thrown)).toContain(`npm rebuild better-sqlite3\` in ${root}`);
  });

  it("leaves every other error alone", async () => {
    expect(nativeModuleProblem(new Error("SQLITE_CANTOPEN: unable to open database file"))).toBeUndefined();
    expect(nativeModuleProblem(Object.assign(new Error("libfoo.so: cannot open"), { code: "ERR_DLOPEN_FAILED" }))).toBeUndefined();
  });
});
