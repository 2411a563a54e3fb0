/** The top-level `envFile` of mcpx's own config: variables for `${NAME}`, beneath the environment. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../src/config/load.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcpx-envfile-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function config(doc: object): string {
  const file = path.join(dir, "mcpx.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
const remote = { url: "https://h/mcp", headers: { Authorization: "Bearer ${TOKEN}" } };

describe("top-level envFile", () => {
  it("supplies ${NAME}; the environment wins; a file others can read is warned about", () => {
    writeFileSync(path.join(dir, "secrets.env"), "TOKEN=from-file\n", { mode: 0o600 });
    const file = config({ envFile: "secrets.env", mcpServers: { remote } });
    const loaded = readConfig(file, {});
    expect(loaded.config.servers[0]?.headers).toEqual({ Authorization: "Bearer from-file" });
    expect(loaded.warnings).toEqual([]);
    expect(readConfig(file, { TOKEN: "from-env" }).config.servers[0]?.headers.Authorization).toBe("Bearer from-env");
    chmodSync(path.join(dir, "secrets.env"), 0o644);
    expect(readConfig(file, {}).warnings).toEqual([expect.stringMatching(/secrets\.env: .*readable by others \(mode 0644\); chmod 600 it/)]);
  });

  it("an unreadable file or a bad line is an error naming it", () => {
    expect(() => readConfig(config({ envFile: "nope.env", mcpServers: {} }), {})).toThrow(/envFile names .*nope\.env, which cannot be read \(ENOENT\)/);
    writeFileSync(path.join(dir, "bad.env"), "A=1\nnot a line\n");
    expect(() => readConfig(config({ envFile: "bad.env", mcpServers: {} }), {})).toThrow(/whose line 2 is not NAME=value/);
    expect(() => readConfig(config({ envFile: "${X}", mcpServers: {} }), {})).toThrow(/envFile must be a path/);
  });
});
