/**
 * The state directory (where it is, private to the user) and the API token kept in it
 * (random, 0600, one per state dir however many processes start at once).
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensurePrivateDir, stateDir } from "../../src/broker/state-dir.js";
import { apiToken, TOKEN_FILE } from "../../src/broker/token.js";
import { GatewayError } from "../../src/protocol/errors.js";
import { raceChildren, tempRoot, tempStateDir } from "./support.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("stateDir", () => {
  it("is $MCPX_STATE_DIR, else $XDG_STATE_HOME/mcpx, else ~/.local/state/mcpx", () => {
    expect(stateDir({ MCPX_STATE_DIR: "/a", XDG_STATE_HOME: "/b" })).toBe("/a");
    expect(stateDir({ XDG_STATE_HOME: "/b" })).toBe(join("/b", "mcpx"));
    expect(stateDir({})).toBe(join(homedir(), ".local", "state", "mcpx"));
  });
});

describe("ensurePrivateDir", () => {
  it("creates the directory (and its parents) 0700", () => {
    const dir = join(tempRoot(), "deep", "state");
    expect(ensurePrivateDir(dir)).toBe(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it("tightens an existing 0755 directory", () => {
    const dir = tempStateDir();
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it("says which directory it cannot use, as STORE_UNAVAILABLE", () => {
    const root = tempRoot();
    writeFileSync(join(root, "file"), "");
    const dir = join(root, "file", "state");
    expect(() => ensurePrivateDir(dir)).toThrow(GatewayError);
    expect(() => ensurePrivateDir(dir)).toThrow(expect.objectContaining({ code: "STORE_UNAVAILABLE", message: expect.stringContaining(dir) }));
  });
});

describe("apiToken", () => {
  it("creates a random 256-bit token in a 0600 file, and keeps it", () => {
    const dir = tempStateDir();
    const token = apiToken(dir);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mode(join(dir, TOKEN_FILE))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(readFileSync(join(dir, TOKEN_FILE), "utf8").trim()).toBe(token);
    expect(apiToken(dir)).toBe(token);
    expect(apiToken(tempStateDir())).not.toBe(token);
  });

  it("replaces a damaged (empty or short) token file instead of using it", () => {
    for (const damaged of ["", "short\n"]) {
      const dir = tempStateDir();
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, TOKEN_FILE), damaged, { mode: 0o600 });
      const token = apiToken(dir);
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(apiToken(dir)).toBe(token);
    }
  });

  it("is the same token for processes that create it at the same moment", async () => {
    const dir = tempStateDir();
    const results = await raceChildren(Array.from({ length: 4 }, () => ["token", dir, "gated"]));
    const tokens = new Set(results.map((result) => result.token));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[0-9a-f]{64}$/);
    expect(apiToken(dir)).toBe([...tokens][0]);
  });

  it("replaced once when processes starting together find it open to others: all of them use the same new one", async () => {
    const dir = tempStateDir();
    mkdirSync(dir, { mode: 0o700 });
    const leaked = "e".repeat(64);
    writeFileSync(join(dir, TOKEN_FILE), `${leaked}\n`, { mode: 0o644 });
    chmodSync(join(dir, TOKEN_FILE), 0o644);
    const results = await raceChildren(Array.from({ length: 4 }, () => ["token", dir, "gated"]));
    expect(results.every((result) => result.ok)).toBe(true);
    const tokens = new Set(results.map((result) => result.token));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe(leaked);
    expect(apiToken(dir)).toBe([...tokens][0]);
    expect(mode(join(dir, TOKEN_FILE))).toBe(0o600);
  });
});
