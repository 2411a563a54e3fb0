/**
 * `mcpx exec|run --typecheck` (docs/scripts.md): before anything runs, the script is checked
 * against the client's declarations of the cached tools; problems are printed FILE:LINE:COL
 * and the command exits 2 with nothing run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

async function runsIn(stateDir: string): Promise<number> {
  const store = SqliteStore.open(stateDir);
  try {
    return (await store.calls.idsStartingWith("", 100)).length;
  } finally {
    await store.close();
  }
}

describe("--typecheck", () => {
  it("a script that does not type-check is refused with FILE:LINE:COL and exit 2, and nothing runs; one that does runs", async () => {
    const config = writeConfig({ mcpServers: { issues: nodeServer("issues-server.mjs") } });
    const file = join(config.dir, "bad.ts");
    writeFileSync(file, 'console.log("ran");\nconst found = await issues.search_issues({ query: 42 });\nconsole.log(found.items.lenght);\n');
    const bad = await runMcpx(["run", file, "--typecheck", "--config", config.file], config);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:\\d+ .+$`, "m"));
    expect(bad.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+ .*lenght`, "m"));
    expect(await runsIn(config.env.MCPX_STATE_DIR!)).toBe(0);
    const good = await runMcpx(
      ["exec", 'const found = await issues.search_issues({ query: "billing" });\nconsole.log(found.items.length);', "--typecheck", "--config", config.file],
      config,
    );
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toBe("10\n");
  }, 90_000); // two cold commands, each loading the TypeScript compiler (seconds on a busy machine)
});
