/**
 * The state dir and its files are the user's alone. Ours but too open (left by an older mcpx,
 * a umask, a chmod): tightened, 0700 for directories, 0600 for files. Another user's: refused,
 * with a message that says whose it is and what to do, since mcpx could not make it private.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { SqliteStore, STORE_FILE } from "../../src/broker/sqlite/sqlite-store.js";
import { apiToken, REQUEST_STATE_KEY_FILE, TOKEN_FILE } from "../../src/broker/token.js";
import { writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { askingStdio } from "../relay/support.js";
import { openBroker, profileForm, tempRoot, tempStateDir } from "./support.js";

const mode = (path: string) => statSync(path).mode & 0o777;
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const TOKEN = "f".repeat(64);

/** A fresh state dir of ours (0700) holding `file`, which belongs to another user. */
function dirWithForeignFile(file: string): string {
  const dir = tempStateDir();
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, file), file === TOKEN_FILE ? TOKEN : "", { mode: 0o600 });
  chownSync(join(dir, file), NOBODY, NOBODY);
  return dir;
}

describe("files of ours that are too open are tightened", () => {
  it("a -wal and -shm left readable by others become 0600 when the store is opened", async () => {
    const first = openBroker();
    try {
      await first.broker.open(profileForm(), {}, 60); // a write, so both exist while `first` is open
      const file = join(first.dir, STORE_FILE);
      for (const sidecar of [`${file}-wal`, `${file}-shm`]) chmodSync(sidecar, 0o644);
      const second = SqliteStore.open(first.dir);
      await second.close();
      for (const sidecar of [`${file}-wal`, `${file}-shm`]) expect(mode(sidecar), sidecar).toBe(0o600);
    } finally {
      await first.close();
    }
  });

  // Issue 13 item 10: a credential others could read may have leaked; keeping it in use was silent.
  it("the API token file left 0644 is replaced by a new 0600 one, with a line saying why", async () => {
    const dir = tempStateDir();
    const token = apiToken(dir);
    chmodSync(join(dir, TOKEN_FILE), 0o644);
    const said: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => said.push(String(chunk)) > 0);
    try {
      const fresh = apiToken(dir);
      expect(fresh).toMatch(/^[0-9a-f]{64}$/);
      expect(fresh).not.toBe(token);
    } finally {
      write.mockRestore();
    }
    expect(mode(join(dir, TOKEN_FILE))).toBe(0o600);
    expect(said.join("")).toMatch(new RegExp(`${TOKEN_FILE}.*0644.*may have leaked.*replaced`));
  });

  it("`mcpx call` finds its calls/ directory 0755 and makes it 0700 (it shields the call logs in it)", async () => {
    const config = writeConfig({ mcpServers: { ask: askingStdio() } });
    const calls = join(config.env.MCPX_STATE_DIR!, "calls");
    mkdirSync(calls, { recursive: true, mode: 0o755 });
    chmodSync(calls, 0o755);
    const run = await runMcpx(["call", "ask.events", "{}", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(mode(calls)).toBe(0o700);
    const logs = readdirSync(calls);
    expect(logs).toHaveLength(1);
    expect(mode(join(calls, logs[0]!))).toBe(0o600);
  });
});

/** Issue 13 item 10: every mcpx process that opens the state dir tightens all of it at start, and says so. */
describe("an existing state directory with loose files", () => {
  /** A state dir (0700) left by an older mcpx or a umask: calls/ 0755 with a 0644 log, a 0644 store, and the credentials 0644. */
  function looseStateDir(): { config: ReturnType<typeof writeConfig>; dir: string } {
    const config = writeConfig({ mcpServers: {} });
    const dir = config.env.MCPX_STATE_DIR!;
    mkdirSync(join(dir, "calls"), { recursive: true, mode: 0o700 });
    chmodSync(join(dir, "calls"), 0o755);
    writeFileSync(join(dir, "calls", "old-call.log"), "a tool's result\n", { mode: 0o644 });
    chmodSync(join(dir, "calls", "old-call.log"), 0o644);
    for (const file of [TOKEN_FILE, REQUEST_STATE_KEY_FILE]) {
      writeFileSync(join(dir, file), `${TOKEN}\n`, { mode: 0o644 });
      chmodSync(join(dir, file), 0o644);
    }
    return { config, dir };
  }

  it("a command that only reads (`mcpx elicit list`) makes calls/ 0700 and its logs 0600, naming them on stderr", async () => {
    const { config, dir } = looseStateDir();
    const run = await runMcpx(["elicit", "list"], config);
    expect(run.code, run.stderr).toBe(0);
    expect(mode(join(dir, "calls"))).toBe(0o700);
    expect(mode(join(dir, "calls", "old-call.log"))).toBe(0o600);
    expect(run.stderr).toMatch(/made .*private/);
    expect(run.stderr).toContain(join("calls", "old-call.log"));
    for (const file of readdirSync(dir)) expect(mode(join(dir, file)) & 0o077, file).toBe(0);
  });

  it("the API token and the requestState key others could read are replaced, each with a line saying why", async () => {
    const { config, dir } = looseStateDir();
    const run = await runMcpx(["elicit", "list"], config);
    expect(run.code, run.stderr).toBe(0);
    for (const file of [TOKEN_FILE, REQUEST_STATE_KEY_FILE]) {
      expect(run.stderr).toMatch(
        new RegExp(`${join(dir, file).replace(/[/\\^$.*+?()[\]{}|]/g, "\\$&")} was open to other users \\(mode 0644\\).*may have leaked.*replaced`),
      );
    }
    const token = apiToken(dir);
    expect(token).not.toBe(TOKEN);
    expect(mode(join(dir, TOKEN_FILE))).toBe(0o600);
    expect(readFileSync(join(dir, TOKEN_FILE), "utf8").trim()).toBe(token);
  });

  it("a private state dir is left as it is, silently", async () => {
    const { config } = looseStateDir();
    await runMcpx(["elicit", "list"], config);
    const again = await runMcpx(["elicit", "list"], config);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/private|leaked/);
  });

  it("a symbolic link in it is not followed: what it points at keeps its mode", async () => {
    const { config, dir } = looseStateDir();
    const outside = join(tempRoot(), "shared.txt");
    writeFileSync(outside, "", { mode: 0o644 });
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dir, "calls", "link.log"));
    const run = await runMcpx(["elicit", "list"], config);
    expect(run.code, run.stderr).toBe(0);
    expect(mode(outside)).toBe(0o644);
  });
});

describe("what belongs to another user is refused", () => {
  /** A directory owned by another user: as root, one made and given away; otherwise `/` (root's). */
  function foreignDir(): string {
    if (!isRoot) return "/";
    const dir = tempStateDir();
    mkdirSync(dir, { mode: 0o755 });
    chownSync(dir, NOBODY, NOBODY);
    return dir;
  }

  it("a state directory: STORE_UNAVAILABLE naming it, whose it is, and MCPX_STATE_DIR; its mode is left alone", async () => {
    const dir = foreignDir();
    const before = mode(dir);
    expect(() => SqliteStore.open(dir)).toThrow(
      expect.objectContaining({
        code: "STORE_UNAVAILABLE",
        message: expect.stringMatching(
          new RegExp(`state directory ${dir.replace(/[/\\^$.*+?()[\]{}|]/g, "\\$&")} belongs to another user \\(uid \\d+, you are uid \\d+\\).*MCPX_STATE_DIR`),
        ),
      }),
    );
    expect(() => apiToken(dir)).toThrow(/belongs to another user/);
    expect(mode(dir)).toBe(before);
  });

  it("the CLI says so and exits non-zero", async () => {
    const dir = foreignDir();
    const run = await runMcpx(["elicit", "list"], writeConfig({ mcpServers: {} }), { MCPX_STATE_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`the state directory ${dir} belongs to another user`);
  });

  it.skipIf(!isRoot)("a store file (mcpx.db, -wal, -shm) another user owns", () => {
    for (const file of [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`]) {
      const dir = dirWithForeignFile(file);
      expect(() => SqliteStore.open(dir), file).toThrow(
        expect.objectContaining({ code: "STORE_UNAVAILABLE", message: expect.stringContaining(`the file ${join(dir, file)} belongs to another user`) }),
      );
    }
  });

  it.skipIf(!isRoot)("an API token file another user owns (that user could know the token)", () => {
    const dir = dirWithForeignFile(TOKEN_FILE);
    expect(() => apiToken(dir)).toThrow(
      expect.objectContaining({ code: "STORE_UNAVAILABLE", message: expect.stringContaining(`the file ${join(dir, TOKEN_FILE)} belongs to another user`) }),
    );
  });
});
