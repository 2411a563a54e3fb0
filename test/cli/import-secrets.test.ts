/**
 * `mcpx import` and the secrets a host's file holds literally (issue 13, item 1): the written
 * config is no looser than 0600, the literal secrets are named on stderr with the variables
 * they could become, and `--move-secrets` moves them into a 0600 dotenv file the config reads.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDotenv } from "../../src/config/dotenv.js";
import { readConfig } from "../../src/config/load.js";
import { type Machine, machine } from "../helpers/host-home.js";

let m: Machine;
beforeEach(() => {
  m = machine();
});
afterEach(() => m.remove());

const BRAVE = "BSA-literal-key-123";
const PAT = "ghp_literalPersonalAccessToken";
const mode = (file: string) => statSync(file).mode & 0o777;

function claudeDesktop(fileMode = 0o600): string {
  return m.write(
    path.join(m.home, ".config", "Claude", "claude_desktop_config.json"),
    {
      mcpServers: {
        "brave-search": { command: "npx", args: ["-y", "@modelcontextprotocol/server-brave-search"], env: { BRAVE_API_KEY: BRAVE, LOG_LEVEL: "debug" } },
        github: { url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: `Bearer ${PAT}`, "X-Trace": "on" } },
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], env: { MEMORY_TOKEN: "${MEMORY_TOKEN}" } },
      },
    },
    fileMode,
  );
}

describe("mcpx import and literal secrets", () => {
  it("writes a new config 0600 and names each literal secret and the variable it could become", async () => {
    claudeDesktop();
    const result = await m.mcpx("import", "claude-desktop");
    expect(result.code).toBe(0);
    const to = path.join(m.project, "mcpx.json");
    expect(mode(to)).toBe(0o600);
    expect(result.stderr).toMatch(/literal secret/);
    expect(result.stderr).toContain("mcpServers.brave-search.env.BRAVE_API_KEY (as ${BRAVE_API_KEY})");
    expect(result.stderr).toContain("mcpServers.github.headers.Authorization (as ${GITHUB_TOKEN})");
    expect(result.stderr).toContain("--move-secrets");
    // Not secrets: a log level, a header that is no credential, a value that is already a reference.
    expect(result.stderr).not.toMatch(/LOG_LEVEL|X-Trace|MEMORY_TOKEN/);
    // The secret values themselves are never printed.
    expect(result.stdout + result.stderr).not.toContain(BRAVE);
    expect(result.stdout + result.stderr).not.toContain(PAT);
  });

  it("tightens an existing config that now holds literal secrets, and says so", async () => {
    claudeDesktop();
    const to = m.write(path.join(m.project, "mcpx.json"), { mcpServers: {} }, 0o644);
    expect(mode(to)).toBe(0o644);
    const result = await m.mcpx("import", "claude-desktop");
    expect(result.code).toBe(0);
    expect(mode(to)).toBe(0o600);
    expect(result.stderr).toMatch(/was readable by others; now 0600/);
  });

  it("--move-secrets writes references into the config and the values into a 0600 .env it reads", async () => {
    claudeDesktop();
    const result = await m.mcpx("import", "claude-desktop", "--move-secrets");
    expect(result.code).toBe(0);
    const to = path.join(m.project, "mcpx.json");
    const envFile = path.join(m.project, ".env");
    const written = readFileSync(to, "utf8");
    expect(written).not.toContain(BRAVE);
    expect(written).not.toContain(PAT);
    expect(written).toContain('"BRAVE_API_KEY": "${BRAVE_API_KEY}"');
    expect(written).toContain('"Authorization": "Bearer ${GITHUB_TOKEN}"');
    expect(mode(envFile)).toBe(0o600);
    expect(parseDotenv(readFileSync(envFile, "utf8")).vars).toEqual({ BRAVE_API_KEY: BRAVE, GITHUB_TOKEN: PAT });
    expect(result.stderr).toMatch(/moved 2 literal secrets/);
    // The config works as it did, with nothing in the environment: mcpx reads the .env.
    const loaded = readConfig(to, { MEMORY_TOKEN: "m" });
    expect(loaded.config.servers.find((s) => s.name === "brave-search")?.env).toMatchObject({ BRAVE_API_KEY: BRAVE, LOG_LEVEL: "debug" });
    expect(loaded.config.servers.find((s) => s.name === "github")?.headers).toEqual({ Authorization: `Bearer ${PAT}`, "X-Trace": "on" });
    // The environment wins over the file, as for a server's envFile.
    expect(readConfig(to, { GITHUB_TOKEN: "other", MEMORY_TOKEN: "m" }).config.servers.find((s) => s.name === "github")?.headers.Authorization).toBe(
      "Bearer other",
    );
  });

  it("--move-secrets keeps what an existing .env has and picks a new name for a different value", async () => {
    claudeDesktop();
    const envFile = path.join(m.project, ".env");
    writeFileSync(envFile, "# mine\nBRAVE_API_KEY=something-else\n", { mode: 0o644 });
    const result = await m.mcpx("import", "claude-desktop", "--move-secrets");
    expect(result.code).toBe(0);
    const text = readFileSync(envFile, "utf8");
    expect(text.startsWith("# mine\nBRAVE_API_KEY=something-else\n")).toBe(true);
    expect(parseDotenv(text).vars).toMatchObject({ BRAVE_API_KEY: "something-else", BRAVE_SEARCH_BRAVE_API_KEY: BRAVE });
    expect(mode(envFile)).toBe(0o600);
    expect(readFileSync(path.join(m.project, "mcpx.json"), "utf8")).toContain('"BRAVE_API_KEY": "${BRAVE_SEARCH_BRAVE_API_KEY}"');
  });
});
