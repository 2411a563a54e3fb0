import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { findConfigPath, loadConfig } from "../../src/config/load.js";

// The example from docs/interface.md ("Configuration"), verbatim.
const EXAMPLE = `{
  "mcpServers": {                       // the Claude-Desktop convention, unchanged
    "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
                "env": { "DEBUG": "0" }, "cwd": "." },
    "remote": { "url": "http://127.0.0.1:9000/mcp", "headers": { "Authorization": "Bearer \${TOKEN}" } },
    "probe":  { "command": "node", "args": ["probe.mjs"],
                "protocol": "auto",     // auto | 2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | 2026-07-28
                "passthrough": true }   // expose this server's names unprefixed
  },
  "elicitation": {
    "ttlSeconds": 120,                  // a question nobody answers becomes \`cancel\` after this
    "rules": []                         // policy rules: see the broker issue
  },
  "http": { "host": "127.0.0.1", "port": 7777, "allowedOrigins": [] }
}
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcpx-config-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function loadError(file: string, env: Record<string, string> = {}): string {
  try {
    loadConfig(file, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("findConfigPath", () => {
  it("prefers --config, then $MCPX_CONFIG, then ./mcpx.json", () => {
    const cwd = process.cwd();
    expect(findConfigPath("a.json", { MCPX_CONFIG: "b.json" }, cwd)).toBe("a.json");
    expect(findConfigPath(undefined, { MCPX_CONFIG: "b.json" }, cwd)).toBe("b.json");
    expect(findConfigPath(undefined, {}, cwd)).toBe("mcpx.json");
    expect(findConfigPath(undefined, { MCPX_CONFIG: "" }, cwd)).toBe("mcpx.json");
  });

  it("resolves a relative choice against another cwd", () => {
    expect(findConfigPath(undefined, {}, dir)).toBe(path.join(dir, "mcpx.json"));
    expect(findConfigPath("sub/x.json", {}, dir)).toBe(path.join(dir, "sub/x.json"));
    expect(findConfigPath("/etc/mcpx.json", {}, dir)).toBe("/etc/mcpx.json");
  });
});

describe("loadConfig", () => {
  it("round-trips the example from interface.md", () => {
    const file = write("proj/mcpx.json", EXAMPLE);
    const proj = path.join(dir, "proj");
    const config = loadConfig(file, { TOKEN: "s3cret" });
    const common = {
      env: {},
      headers: {},
      args: [],
      transport: "auto",
      protocol: "auto",
      passthrough: false,
      sharing: "shared",
      timeoutSeconds: 120,
      disabled: false,
      elicitation: {},
      cwd: proj,
    };
    expect(config).toStrictEqual({
      file,
      servers: [
        { ...common, name: "files", kind: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "0" } },
        { ...common, name: "remote", kind: "http", url: "http://127.0.0.1:9000/mcp", headers: { Authorization: "Bearer s3cret" } },
        { ...common, name: "probe", kind: "stdio", command: "node", args: ["probe.mjs"], passthrough: true },
      ],
      elicitation: { ttlSeconds: 120, mode: "ask", rules: [], retentionDays: 7 },
      expose: "all",
      pinned: [],
      profiles: [],
      approvals: [],
      http: { host: "127.0.0.1", port: 7777, allowedOrigins: [], allowedHosts: [], headersTimeoutSeconds: 10, bodyTimeoutSeconds: 30 },
      daemon: { idleMinutes: 10 },
      scripts: { memoryMb: 64, timeoutSeconds: 30, outputKb: 64, maxCalls: 1000 },
      limits: {
        maxMessageBytes: 4194304,
        maxUpstreamMessageBytes: 67108864,
        requestTimeoutSeconds: 120,
        startupTimeoutSeconds: 30,
        maxSessions: 100,
        sessionIdleSeconds: 1800,
        maxToolsPerServer: 1000,
        maxPendingQuestionsPerServer: 32,
        maxInputRounds: 8,
        maxWaitingRoundsPerHost: 4,
        inputRoundSeconds: 30,
      },
    });
  });

  it("names the unset variable and its key when the example is loaded without TOKEN", () => {
    const file = write("mcpx.json", EXAMPLE);
    expect(loadError(file)).toBe(`${file}: mcpServers.remote.headers.Authorization uses \${TOKEN}, but the environment variable TOKEN is not set`);
  });

  it("resolves cwd against the config file's directory, not the process's", () => {
    const file = write("nested/deeper/mcpx.json", '{ "mcpServers": { "a": { "command": "x", "cwd": "../work" }, "b": { "command": "y" } } }');
    const [a, b] = loadConfig(file, {}).servers;
    expect(a?.cwd).toBe(path.join(dir, "nested/work"));
    expect(b?.cwd).toBe(path.join(dir, "nested/deeper"));
  });

  it("reports a missing file with the path it looked for", () => {
    expect(loadError(path.join(dir, "nope.json"))).toBe(`no config file: looked for ${path.join(dir, "nope.json")}`);
  });

  it("reports a directory instead of a file", () => {
    expect(loadError(dir)).toBe(`${dir}: is a directory, not a config file`);
  });

  it("reports syntax errors with file, line and column", () => {
    const file = write("bad.json", '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n');
    expect(loadError(file)).toBe(`${file}:4:5: unexpected "\\""; expected ',' or '}'`);
  });

  it("names the file as given, relative or absolute, in validation errors", () => {
    write("rel/mcpx.json", '{ "mcpServers": { "files": { "command": "npx", "args": "-y" } } }');
    const relative = path.relative(process.cwd(), path.join(dir, "rel/mcpx.json"));
    expect(loadError(relative)).toBe(`${relative}: mcpServers.files.args must be an array of strings`);
    write("ok/mcpx.json", "{}");
    expect(loadConfig(path.join(dir, "ok/../ok/mcpx.json"), {}).file).toBe(path.join(dir, "ok/mcpx.json"));
  });
});
