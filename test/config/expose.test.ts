/**
 * `expose` and `pinned` (docs/configuration.md, docs/discovery.md "Discovery for hosts"): what
 * a host's tools/list holds, and which upstream tools stay listed in discovery mode.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";

const FILE = "conf/mcpx.json";
const SERVERS = { github: { command: "gh-mcp" }, "my-files": { url: "http://127.0.0.1:9/mcp" } };
const load = (raw: object) => configFromObject({ mcpServers: SERVERS, ...raw }, FILE, {});

function problems(raw: object): string[] {
  try {
    load(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("expose", () => {
  it('is "all" unless the file says "discovery"', () => {
    expect(load({}).expose).toBe("all");
    expect(load({ expose: "discovery" }).expose).toBe("discovery");
    expect(load({ expose: "all" }).expose).toBe("all");
  });

  it("refuses anything else, naming the choices", () => {
    expect(problems({ expose: "some" })).toEqual([`${FILE}: expose must be one of "all", "discovery" (got "some")`]);
  });
});

describe("pinned", () => {
  it("keeps SERVER__TOOL names in order; a tool name may itself hold __", () => {
    expect(load({ pinned: ["my-files__read__all", "github__create_issue"] }).pinned).toEqual(["my-files__read__all", "github__create_issue"]);
    expect(load({}).pinned).toEqual([]);
  });

  it("refuses what is not a list of SERVER__TOOL names of configured servers, every problem at once", () => {
    expect(problems({ pinned: ["create_issue", "githb__create_issue", "github__", 7, "github__x", "github__x"] })).toEqual([
      `${FILE}: pinned.0 must be a tool named "SERVER__TOOL" (a server of mcpServers, "__", the server's own tool name); got "create_issue"`,
      `${FILE}: pinned.1 names server "githb", which is not in mcpServers; did you mean "github"?`,
      `${FILE}: pinned.2 must be a tool named "SERVER__TOOL" (a server of mcpServers, "__", the server's own tool name); got "github__"`,
      `${FILE}: pinned.3 must be a tool named "SERVER__TOOL" (a server of mcpServers, "__", the server's own tool name); got 7`,
      `${FILE}: pinned.5 lists "github__x" a second time`,
    ]);
    expect(problems({ pinned: "github__x" })).toEqual([`${FILE}: pinned must be an array of tool names, each "SERVER__TOOL"`]);
  });
});
