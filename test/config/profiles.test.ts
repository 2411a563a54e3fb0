/**
 * `profiles` in the config (config/profiles.ts): what a valid profile reads as, and every
 * mistake that can be seen without the servers running, each a ConfigError naming the key.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";
import { overrideFor, profileShows } from "../../src/config/profiles.js";

const FILE = "conf/mcpx.json";
const SERVERS = { fs: { command: "fs-server" }, wiki: { command: "wiki-server" }, git: { command: "git-server" } };
const load = (profiles: unknown, extra: object = {}) => configFromObject({ mcpServers: SERVERS, profiles, ...extra }, FILE, {});

function problems(profiles: unknown, extra: object = {}): string[] {
  try {
    load(profiles, extra);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("profiles: reading", () => {
  it("reads a profile's servers, tools, overrides, expose and pinned, in file order", () => {
    const config = load({
      readonly: {
        servers: ["fs", "wik*"],
        tools: { allow: ["fs__read_*", "wiki__*"], deny: ["*__delete_*"] },
        overrides: {
          fs__read_text_file: { name: "read", description: "Read a team file", arguments: { head: 10 } },
          "wiki__*": { description: "A wiki tool" },
        },
        expose: "discovery",
        pinned: ["fs__read_text_file"],
      },
      all: {},
    });
    expect(config.profiles).toEqual([
      {
        name: "readonly",
        servers: ["fs", "wik*"],
        tools: { allow: ["fs__read_*", "wiki__*"], deny: ["*__delete_*"] },
        overrides: [
          { tool: "fs__read_text_file", name: "read", description: "Read a team file", arguments: { head: 10 } },
          { tool: "wiki__*", description: "A wiki tool" },
        ],
        expose: "discovery",
        pinned: ["fs__read_text_file"],
      },
      { name: "all", servers: ["*"], overrides: [] },
    ]);
    const [readonly, all] = config.profiles;
    expect(profileShows(readonly!, "fs", "read_file")).toBe(true);
    expect(profileShows(readonly!, "fs", "write_file")).toBe(false);
    expect(profileShows(readonly!, "wiki", "delete_page")).toBe(false);
    expect(profileShows(readonly!, "git", "log")).toBe(false);
    expect(profileShows(all!, "git", "push")).toBe(true);
    expect(overrideFor(readonly!, "wiki", "search")?.description).toBe("A wiki tool");
    expect(overrideFor(readonly!, "fs", "read_file")).toBeUndefined();
  });

  it("takes its servers from tools.allow when it names none: resources and prompts follow them", () => {
    const [profile] = load({ ro: { tools: { allow: ["fs__read_*", "git__log"] } } }).profiles;
    expect(profile!.servers).toEqual(["fs", "git"]);
    expect(profileShows(profile!, "wiki", "search")).toBe(false);
  });

  it("defaults to no profiles", () => {
    expect(configFromObject({}, FILE, {}).profiles).toEqual([]);
  });
});

describe("profiles: mistakes", () => {
  it("refuses a server that is not configured, wherever it is named", () => {
    expect(problems({ p: { servers: ["fss"], tools: { allow: ["gti__log"] }, overrides: { wikki__x: { description: "d" } } } })).toEqual([
      `${FILE}: profiles.p.servers.0 names server "fss", which is not in mcpServers; did you mean "fs"?`,
      `${FILE}: profiles.p.tools.allow.0 names server "gti", which is not in mcpServers; did you mean "git" or "wiki"?`,
      `${FILE}: profiles.p.overrides.wikki__x names server "wikki", which is not in mcpServers; did you mean "wiki"?`,
    ]);
  });

  it("refuses two tools renamed alike, a name of mcpx's or of another server, and a glob renamed", () => {
    expect(
      problems({
        p: {
          overrides: {
            fs__read_file: { name: "read" },
            wiki__get_page: { name: "read" },
            fs__list: { name: "MCPX__list" },
            fs__stat: { name: "git__stat" },
            "fs__get_*": { name: "get" },
          },
        },
      }),
    ).toEqual([
      `${FILE}: profiles.p.overrides.wiki__get_page.name is also the name given to fs__read_file: two tools cannot share a name`,
      `${FILE}: profiles.p.overrides.fs__list.name must not start with "mcpx__": those names are mcpx's own`,
      `${FILE}: profiles.p.overrides.fs__stat.name is in server "git"'s names (git__…); rename it to a name of its own`,
      `${FILE}: profiles.p.overrides["fs__get_*"].name renames one tool: give the tool's exact SERVER__TOOL, not a glob`,
    ]);
  });

  it("refuses an override or a pinned tool the profile leaves out, and a tools.allow of a server it leaves out", () => {
    expect(
      problems({
        p: {
          servers: ["fs"],
          tools: { allow: ["fs__read_*", "git__log"] },
          overrides: { fs__write_file: { description: "x" } },
          pinned: ["fs__write_file"],
        },
      }),
    ).toEqual([
      `${FILE}: profiles.p.tools.allow.1 names server "git", which this profile's "servers" leave out`,
      `${FILE}: profiles.p.overrides.fs__write_file is a tool this profile leaves out (its "servers" and "tools" decide which it serves)`,
      `${FILE}: profiles.p.pinned.0 pins "fs__write_file", which this profile leaves out`,
    ]);
  });

  it("refuses a name that is no path segment, an unknown key and a pattern without a server", () => {
    expect(problems({ "read only": {}, _x: {}, p: { tool: [] }, q: { tools: { deny: ["delete_*"] } } })).toEqual([
      `${FILE}: profiles["read only"] is not a valid profile name: letters, digits, "_" and "-", starting with a letter or digit, at most 64 (it is a path, /mcp/<name>)`,
      `${FILE}: profiles._x is not a valid profile name: letters, digits, "_" and "-", starting with a letter or digit, at most 64 (it is a path, /mcp/<name>)`,
      `${FILE}: profiles.p.tool is not a known key (did you mean "tools"?)`,
      `${FILE}: profiles.q.tools.deny.0 must be "SERVER__TOOL" (a server or a glob of servers, "__", the server's own tool name or a glob); got "delete_*"`,
    ]);
  });
});
