import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { parseJsonc } from "../../src/config/jsonc.js";
import { configFromObject, defaultConfig } from "../../src/config/load.js";

// A path that need not exist: configFromObject never touches the disk.
const FILE = "conf/mcpx.json";
const DIR = path.resolve("conf");

const load = (raw: unknown, env: Record<string, string> = {}) => configFromObject(raw, FILE, env);
const servers = (mcpServers: unknown) => load({ mcpServers }).servers;

/** Every line of the ConfigError that `raw` produces. */
function problems(raw: unknown): string[] {
  try {
    load(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe("CONFIG_INVALID");
    expect((err as ConfigError).name).toBe("ConfigError");
    return (err as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}
const problem = (raw: unknown) => {
  const all = problems(raw);
  expect(all).toHaveLength(1);
  return all[0];
};
const serverProblem = (server: unknown, name = "s") => problem({ mcpServers: { [name]: server } });

describe("configFromObject: defaults", () => {
  it("fills every top-level default", () => {
    expect(load({})).toEqual({
      file: path.resolve(FILE),
      servers: [],
      elicitation: { ttlSeconds: 120, mode: "ask", rules: [], retentionDays: 7 },
      expose: "all",
      pinned: [],
      approvals: [],
      profiles: [],
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

  it("defaultConfig is the same with file <defaults>", () => {
    expect(defaultConfig()).toEqual({ ...load({}), file: "<defaults>" });
  });

  it("fills every server default", () => {
    expect(servers({ files: { command: "npx" } })).toStrictEqual([
      {
        name: "files",
        kind: "stdio",
        command: "npx",
        args: [],
        env: {},
        cwd: DIR,
        headers: {},
        transport: "auto",
        protocol: "auto",
        passthrough: false,
        sharing: "shared",
        timeoutSeconds: 120,
        disabled: false,
        elicitation: {},
      },
    ]);
    const [remote] = servers({ remote: { url: "https://example.com/mcp" } });
    expect(remote).toMatchObject({ kind: "http", url: "https://example.com/mcp", transport: "auto" });
    expect(remote).not.toHaveProperty("command");
  });

  it("takes a server's timeout from limits.requestTimeoutSeconds unless it sets its own", () => {
    const config = load({
      limits: { requestTimeoutSeconds: 45 },
      mcpServers: { a: { command: "a" }, b: { command: "b", timeoutSeconds: 5 } },
    });
    expect(config.servers.map((s) => s.timeoutSeconds)).toEqual([45, 5]);
  });

  it("reads every setting that is given", () => {
    const config = load({
      $schema: "https://example.com/mcpx.schema.json",
      elicitation: { ttlSeconds: 0.5, mode: "decline", rules: [{ any: "thing" }], retentionDays: 1 },
      http: {
        host: "0.0.0.0",
        port: 0,
        allowedOrigins: ["http://localhost:3000"],
        allowedHosts: ["box.lan"],
        headersTimeoutSeconds: 2,
        bodyTimeoutSeconds: 3.5,
      },
      limits: {
        maxMessageBytes: 1024,
        maxUpstreamMessageBytes: 2048,
        requestTimeoutSeconds: 10,
        startupTimeoutSeconds: 2,
        maxSessions: 3,
        sessionIdleSeconds: 0.5,
        maxToolsPerServer: 7,
        maxPendingQuestionsPerServer: 4,
        maxInputRounds: 3,
        maxWaitingRoundsPerHost: 2,
        inputRoundSeconds: 0.25,
      },
      mcpServers: {
        p: {
          command: "node",
          args: ["p.mjs"],
          env: { A: "1" },
          cwd: "/opt/p",
          protocol: "2025-06-18",
          passthrough: true,
          disabled: true,
          elicitation: { ttlSeconds: 9 },
          type: "stdio",
        },
      },
    });
    expect(config.elicitation).toEqual({ ttlSeconds: 0.5, mode: "decline", rules: [{ any: "thing" }], retentionDays: 1 });
    expect(config.http).toEqual({
      host: "0.0.0.0",
      port: 0,
      allowedOrigins: ["http://localhost:3000"],
      allowedHosts: ["box.lan"],
      headersTimeoutSeconds: 2,
      bodyTimeoutSeconds: 3.5,
    });
    expect(config.limits).toEqual({
      maxMessageBytes: 1024,
      maxUpstreamMessageBytes: 2048,
      requestTimeoutSeconds: 10,
      startupTimeoutSeconds: 2,
      maxSessions: 3,
      sessionIdleSeconds: 0.5,
      maxToolsPerServer: 7,
      maxPendingQuestionsPerServer: 4,
      maxInputRounds: 3,
      maxWaitingRoundsPerHost: 2,
      inputRoundSeconds: 0.25,
    });
    expect(config.servers[0]).toMatchObject({
      args: ["p.mjs"],
      env: { A: "1" },
      cwd: path.resolve("/opt/p"),
      protocol: "2025-06-18",
      passthrough: true,
      disabled: true,
      elicitation: { ttlSeconds: 9 },
      transport: "auto",
    });
  });

  it("accepts every protocol revision", () => {
    for (const protocol of ["auto", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]) {
      expect(servers({ s: { command: "x", protocol } })[0]?.protocol).toBe(protocol);
    }
  });

  it("substitutes ${VAR} before validating", () => {
    const config = load(
      { http: { host: "${HOST:-127.0.0.1}" }, mcpServers: { r: { url: "${BASE}/mcp", headers: { A: "Bearer ${T}" } } } },
      { BASE: "http://h:9", T: "tok" },
    );
    expect(config.http.host).toBe("127.0.0.1");
    expect(config.servers[0]).toMatchObject({ url: "http://h:9/mcp", headers: { A: "Bearer tok" } });
  });
});

describe("configFromObject: server order and cwd", () => {
  it("keeps servers in file order, even integer-like names", () => {
    const raw = parseJsonc('{ "mcpServers": { "zeta": {"command":"z"}, "2": {"command":"t"}, "alpha": {"command":"a"} } }', FILE);
    expect(load(raw).servers.map((s) => s.name)).toEqual(["zeta", "2", "alpha"]);
  });

  it("resolves a relative cwd against the config file's directory", () => {
    const [a, b, c, d] = servers({
      a: { command: "x", cwd: "." },
      b: { command: "x", cwd: "sub/dir" },
      c: { command: "x", cwd: "../up" },
      d: { command: "x", cwd: "/abs/path" },
    });
    expect([a?.cwd, b?.cwd, c?.cwd, d?.cwd]).toEqual([DIR, path.join(DIR, "sub/dir"), path.resolve(DIR, "../up"), path.resolve("/abs/path")]);
  });

  it("gives a server without cwd the config file's directory, for http servers too", () => {
    const [s, h] = servers({ s: { command: "x" }, h: { url: "http://h/mcp" } });
    expect(s?.cwd).toBe(DIR);
    expect(h?.cwd).toBe(DIR);
  });
});

describe("configFromObject: type and transport", () => {
  it.each([
    [{ url: "http://h/mcp", type: "sse" }, "sse"],
    [{ url: "http://h/mcp", type: "http" }, "streamable-http"],
    [{ url: "http://h/mcp", type: "streamable-http" }, "streamable-http"],
    [{ url: "http://h/mcp" }, "auto"],
    [{ url: "http://h/mcp", transport: "sse" }, "sse"],
    [{ url: "http://h/mcp", transport: "streamable-http" }, "streamable-http"],
    [{ url: "http://h/mcp", type: "sse", transport: "sse" }, "sse"],
    [{ command: "x", type: "stdio" }, "auto"],
  ])("%o → transport %s", (server, transport) => {
    expect(servers({ s: server })[0]?.transport).toBe(transport);
  });

  it("derives kind from command or url", () => {
    expect(servers({ a: { command: "x" }, b: { url: "http://h" } }).map((s) => s.kind)).toEqual(["stdio", "http"]);
  });

  it("rejects a type that contradicts the server", () => {
    expect(serverProblem({ command: "x", type: "sse" })).toBe('conf/mcpx.json: mcpServers.s.type is "sse", which does not fit a server with "command"');
    expect(serverProblem({ url: "http://h", type: "stdio" })).toBe('conf/mcpx.json: mcpServers.s.type is "stdio", which does not fit a server with "url"');
  });

  it("rejects a transport that contradicts type", () => {
    expect(serverProblem({ url: "http://h", type: "http", transport: "sse" })).toBe(
      'conf/mcpx.json: mcpServers.s.transport is "sse", but "type" "http" means "streamable-http"',
    );
  });

  it("rejects unknown type and transport values", () => {
    expect(serverProblem({ url: "http://h", type: "websocket" })).toBe(
      'conf/mcpx.json: mcpServers.s.type must be one of "stdio", "http", "streamable-http", "sse" (got "websocket")',
    );
    expect(serverProblem({ url: "http://h", transport: "ws" })).toBe(
      'conf/mcpx.json: mcpServers.s.transport must be one of "auto", "streamable-http", "sse" (got "ws")',
    );
  });
});

describe("configFromObject: errors name the file and the key path", () => {
  it("unknown keys, with a hint for near misses", () => {
    expect(problem({ mcpServer: {} })).toBe('conf/mcpx.json: mcpServer is not a known key (did you mean "mcpServers"?)');
    expect(serverProblem({ comand: "x", url: "http://h" }, "files")).toBe(
      'conf/mcpx.json: mcpServers.files.comand is not a known key (did you mean "command"?)',
    );
    expect(problem({ http: { bind: "x" } })).toBe("conf/mcpx.json: http.bind is not a known key");
    expect(problem({ elicitation: { ttl: 5 } })).toBe("conf/mcpx.json: elicitation.ttl is not a known key");
    expect(problem({ limits: { maxBytes: 5 } })).toBe("conf/mcpx.json: limits.maxBytes is not a known key");
    expect(problem({ daemon: { idleSeconds: 5 } })).toBe("conf/mcpx.json: daemon.idleSeconds is not a known key");
    expect(serverProblem({ command: "x", elicitation: { mode: "auto" } })).toBe("conf/mcpx.json: mcpServers.s.elicitation.mode is not a known key");
  });

  it("wrong types", () => {
    expect(serverProblem({ command: "npx", args: "-y" }, "files")).toBe("conf/mcpx.json: mcpServers.files.args must be an array of strings");
    expect(serverProblem({ command: "npx", args: ["-y", 3] })).toBe("conf/mcpx.json: mcpServers.s.args must be an array of strings");
    expect(serverProblem({ command: "x", env: { DEBUG: 0 } })).toBe("conf/mcpx.json: mcpServers.s.env must be an object of string values");
    expect(serverProblem({ url: "http://h", headers: ["A: b"] })).toBe("conf/mcpx.json: mcpServers.s.headers must be an object of string values");
    expect(serverProblem({ command: 7 })).toBe("conf/mcpx.json: mcpServers.s.command must be a non-empty string");
    expect(serverProblem({ command: "" })).toBe("conf/mcpx.json: mcpServers.s.command must be a non-empty string");
    expect(serverProblem({ command: "x", passthrough: "yes" })).toBe("conf/mcpx.json: mcpServers.s.passthrough must be true or false");
    expect(serverProblem({ command: "x", disabled: 1 })).toBe("conf/mcpx.json: mcpServers.s.disabled must be true or false");
    expect(serverProblem({ command: "x", sharing: "per-call" })).toMatch(/^conf\/mcpx\.json: mcpServers\.s\.sharing must be one of .*"shared".*"per-host"/);
    expect(serverProblem({ command: "x", timeoutSeconds: "30" })).toBe("conf/mcpx.json: mcpServers.s.timeoutSeconds must be a number");
    expect(serverProblem("npx")).toBe("conf/mcpx.json: mcpServers.s must be an object");
    expect(problem({ mcpServers: [] })).toBe("conf/mcpx.json: mcpServers must be an object");
    expect(problem([])).toBe("conf/mcpx.json: the config must be an object");
    expect(problem({ http: { port: "7777" } })).toBe("conf/mcpx.json: http.port must be a number");
    expect(problem({ http: { allowedOrigins: "*" } })).toBe("conf/mcpx.json: http.allowedOrigins must be an array of strings");
    expect(problem({ elicitation: { rules: {} } })).toBe("conf/mcpx.json: elicitation.rules must be an array");
    expect(problem({ elicitation: null })).toBe("conf/mcpx.json: elicitation must be an object");
    expect(problem({ daemon: { idleMinutes: 0 } })).toMatch(/^conf\/mcpx\.json: daemon\.idleMinutes must be /);
    expect(problem({ daemon: { idleMinutes: "10" } })).toBe("conf/mcpx.json: daemon.idleMinutes must be a number");
    expect(problem({ scripts: { memoryMb: 2 } })).toMatch(/^conf\/mcpx\.json: scripts\.memoryMb must be /);
    expect(problem({ scripts: { timeout: 5 } })).toBe("conf/mcpx.json: scripts.timeout is not a known key");
  });

  it("a server with neither command nor url, or with both", () => {
    expect(serverProblem({ args: ["x"] }, "files")).toBe(
      'conf/mcpx.json: mcpServers.files needs either "command" (a local process) or "url" (a remote endpoint)',
    );
    expect(serverProblem({ command: "x", url: "http://h" }, "files")).toBe(
      'conf/mcpx.json: mcpServers.files has both "command" and "url"; a server is either a local process or a remote endpoint',
    );
  });

  it("keys that belong to the other kind of server", () => {
    expect(serverProblem({ url: "http://h", args: [] })).toBe('conf/mcpx.json: mcpServers.s.args applies only to servers with a "command"');
    expect(serverProblem({ url: "http://h", cwd: "." })).toBe('conf/mcpx.json: mcpServers.s.cwd applies only to servers with a "command"');
    expect(serverProblem({ command: "x", headers: {} })).toBe('conf/mcpx.json: mcpServers.s.headers applies only to servers with a "url"');
    expect(serverProblem({ command: "x", transport: "sse" })).toBe('conf/mcpx.json: mcpServers.s.transport applies only to servers with a "url"');
  });

  it("invalid URLs", () => {
    expect(serverProblem({ url: "not a url" }, "remote")).toBe('conf/mcpx.json: mcpServers.remote.url is not a valid URL (got "not a url")');
    expect(serverProblem({ url: "ftp://h/x" }, "remote")).toBe('conf/mcpx.json: mcpServers.remote.url must be an http:// or https:// URL (got "ftp://h/x")');
    expect(serverProblem({ url: "" }, "remote")).toBe("conf/mcpx.json: mcpServers.remote.url must be a non-empty string");
  });

  it("invalid protocol and mode values", () => {
    expect(serverProblem({ command: "x", protocol: "2025-01-01" }, "probe")).toBe(
      'conf/mcpx.json: mcpServers.probe.protocol must be one of "auto", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28" (got "2025-01-01")',
    );
    expect(problem({ elicitation: { mode: "always" } })).toBe(
      'conf/mcpx.json: elicitation.mode must be one of "ask", "host", "auto", "decline", "error" (got "always")',
    );
  });

  it.each([
    [{ mcpServers: { s: { command: "x", timeoutSeconds: 0 } } }, "mcpServers.s.timeoutSeconds must be greater than 0 (got 0)"],
    [{ mcpServers: { s: { command: "x", elicitation: { ttlSeconds: -5 } } } }, "mcpServers.s.elicitation.ttlSeconds must be greater than 0 (got -5)"],
    [{ elicitation: { ttlSeconds: 0 } }, "elicitation.ttlSeconds must be greater than 0 (got 0)"],
    [{ elicitation: { retentionDays: -1 } }, "elicitation.retentionDays must be greater than 0 (got -1)"],
    [{ limits: { maxMessageBytes: 0 } }, "limits.maxMessageBytes must be greater than 0 (got 0)"],
    [{ limits: { maxMessageBytes: 10.5 } }, "limits.maxMessageBytes must be a whole number (got 10.5)"],
    [{ limits: { requestTimeoutSeconds: -1 } }, "limits.requestTimeoutSeconds must be greater than 0 (got -1)"],
    [{ limits: { startupTimeoutSeconds: 0 } }, "limits.startupTimeoutSeconds must be greater than 0 (got 0)"],
    [{ limits: { maxSessions: 0 } }, "limits.maxSessions must be greater than 0 (got 0)"],
    [{ limits: { maxSessions: 1.5 } }, "limits.maxSessions must be a whole number (got 1.5)"],
    [{ limits: { sessionIdleSeconds: 0 } }, "limits.sessionIdleSeconds must be greater than 0 (got 0)"],
    [{ limits: { maxToolsPerServer: -1 } }, "limits.maxToolsPerServer must be greater than 0 (got -1)"],
    [{ limits: { maxToolsPerServer: 2.5 } }, "limits.maxToolsPerServer must be a whole number (got 2.5)"],
    [{ http: { port: 70000 } }, "http.port must be from 0 to 65535 (got 70000)"],
    [{ http: { port: -1 } }, "http.port must be from 0 to 65535 (got -1)"],
    [{ http: { port: 80.5 } }, "http.port must be a whole number (got 80.5)"],
    [{ http: { host: "" } }, "http.host must be a non-empty string"],
    [{ http: { headersTimeoutSeconds: 0 } }, "http.headersTimeoutSeconds must be greater than 0 (got 0)"],
    [{ http: { bodyTimeoutSeconds: -1 } }, "http.bodyTimeoutSeconds must be greater than 0 (got -1)"],
  ])("nonsense number or value %o", (raw, message) => {
    expect(problem(raw)).toBe(`conf/mcpx.json: ${message}`);
  });

  it.each([
    ["my server", 'mcpServers["my server"] is not a valid server name: use only letters, digits, "_" and "-"'],
    ["a.b", 'mcpServers["a.b"] is not a valid server name: use only letters, digits, "_" and "-"'],
    ["fïles", 'mcpServers["fïles"] is not a valid server name: use only letters, digits, "_" and "-"'],
    ["a__b", 'mcpServers.a__b is not a valid server name: "__" is reserved: mcpx joins server and tool names with it'],
    ["__proto__", 'mcpServers.__proto__ is not a valid server name: "__" is reserved: mcpx joins server and tool names with it'],
    ["files_", 'mcpServers.files_ is not a valid server name: it must not end with "_", which would blur the "__" that follows it'],
    ["", 'mcpServers[""] is not a valid server name: it is empty'],
  ])("server name %j", (name, message) => {
    expect(serverProblem({ command: "x" }, name)).toBe(`conf/mcpx.json: ${message}`);
  });

  it("accepts names with single underscores, dashes and digits", () => {
    expect(servers({ "my_server-2": { command: "x" }, _lead: { command: "x" } }).map((s) => s.name)).toEqual(["my_server-2", "_lead"]);
  });

  it("reports every problem at once, one per line", () => {
    expect(
      problems({
        mcpServers: { files: { command: "npx", args: "-y" }, remote: { url: "nope" }, empty: {} },
        http: { port: "x" },
      }),
    ).toEqual([
      "conf/mcpx.json: http.port must be a number",
      "conf/mcpx.json: mcpServers.files.args must be an array of strings",
      'conf/mcpx.json: mcpServers.remote.url is not a valid URL (got "nope")',
      'conf/mcpx.json: mcpServers.empty needs either "command" (a local process) or "url" (a remote endpoint)',
    ]);
  });
});

describe("configFromObject: roots", () => {
  it("takes file URIs as given and makes paths into file URIs against the config's folder", () => {
    const config = load({
      roots: ["file:///srv/project", "work", { uri: "/abs/dir", name: "abs" }],
      mcpServers: { s: { command: "x", roots: [] } },
    });
    expect(config.roots).toEqual([
      { uri: "file:///srv/project" },
      { uri: new URL(`file://${path.join(DIR, "work")}`).href },
      { uri: "file:///abs/dir", name: "abs" },
    ]);
    // A server's own list, even an empty one, is its answer.
    expect(config.servers[0]?.roots).toEqual([]);
  });

  it("leaves roots out when the config says nothing", () => {
    const config = load({ mcpServers: { s: { command: "x" } } });
    expect(config.roots).toBeUndefined();
    expect(config.servers[0]?.roots).toBeUndefined();
  });

  it("refuses what is not a root", () => {
    expect(problem({ roots: "file:///srv" })).toContain("roots must be a list of roots");
    expect(problem({ roots: ["https://example.com/x"] })).toContain('must be a file:// URI or a path (got "https://example.com/x")');
    expect(problem({ roots: [{ name: "no uri" }] })).toContain('needs a "uri"');
    expect(problem({ mcpServers: { s: { command: "x", roots: [""] } } })).toContain("must not be empty");
  });
});
