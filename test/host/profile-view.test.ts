/**
 * A profile's view (host/profile-view.ts) over the catalogs the gateway has read: which tools
 * it keeps, how a rename and a fixed argument show, that a renamed name wins over an upstream
 * tool that happens to have it, which pinned tools and expose it inherits, and how a call's
 * arguments are made from the host's and the fixed ones.
 */
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/load.js";
import { RpcError } from "../../src/protocol/errors.js";
import { profileView, withFixedArguments } from "../../src/host/profile-view.js";

const SCHEMA = { type: "object", properties: { path: { type: "string" }, head: { type: "number" } }, required: ["path", "head"] };
const catalog = (...names: string[]) => ({
  tools: names.map((name) => ({ name, description: `${name} as listed`, inputSchema: SCHEMA })),
  prompts: [{ name: `${names[0]}-prompt` }],
  resources: [],
  resourceTemplates: [],
});

const config = configFromObject(
  {
    mcpServers: { fs: { command: "fs" }, plain: { command: "plain", passthrough: true }, wiki: { command: "wiki" } },
    expose: "discovery",
    pinned: ["fs__read_text_file", "wiki__search"],
    profiles: {
      readonly: {
        tools: { allow: ["fs__read_*", "plain__*"], deny: ["*__read_secret"] },
        overrides: { fs__read_text_file: { name: "read", description: "Read a team file", arguments: { head: 1 } } },
      },
    },
  },
  "conf/mcpx.json",
  {},
);
const sources = [
  // A passthrough server, read first, whose own tool is called "read": the name the profile gives another.
  { server: "plain", passthrough: true, catalog: catalog("read", "other") },
  { server: "fs", passthrough: false, catalog: catalog("read_text_file", "read_secret", "write_file") },
  { server: "wiki", passthrough: false, catalog: catalog("search") },
];
const view = profileView(config, config.profiles[0]!, sources);

describe("a profile's view", () => {
  it("keeps its servers' tools that it allows, renamed and described, the fixed argument out of the schema and its required list", () => {
    expect(view.catalogue.tools.map((tool) => tool.name)).toEqual(["other", "read"]);
    const read = view.catalogue.tools[1];
    expect(read).toMatchObject({ description: "Read a team file", inputSchema: { properties: { path: { type: "string" } }, required: ["path"] } });
    expect(view.catalogue.tool("read")).toEqual({ server: "fs", original: "read_text_file", inputSchema: read!.inputSchema, fixed: { head: 1 } });
    // The upstream's own "read" lost its name to the rename, and is not reachable by it.
    expect(view.catalogue.dropped).toContainEqual(expect.objectContaining({ server: "plain", name: "read", reason: "taken" }));
    for (const name of ["fs__read_text_file", "fs__write_file", "fs__read_secret", "wiki__search"]) expect(view.catalogue.tool(name)).toBeUndefined();
  });

  it("serves the prompts of its servers only, its servers in its config, and the top-level pins it serves", () => {
    expect(view.catalogue.prompts.map((prompt) => prompt.name)).toEqual(["read-prompt", "fs__read_text_file-prompt"]);
    expect(view.config.servers.map((server) => server.name)).toEqual(["fs", "plain"]); // config order
    expect(view.config.expose).toBe("discovery");
    expect(view.config.pinned).toEqual(["fs__read_text_file"]);
  });

  it("sends the fixed arguments with the host's, refuses another value, and lets the same value pass", () => {
    const owned = view.catalogue.tool("read")!;
    expect(withFixedArguments(owned, { path: "a.txt" })).toEqual({ path: "a.txt", head: 1 });
    expect(withFixedArguments(owned, { path: "a.txt", head: 1 })).toEqual({ path: "a.txt", head: 1 });
    expect(() => withFixedArguments(owned, { path: "a.txt", head: 50 })).toThrow(RpcError);
    expect(() => withFixedArguments(owned, { path: "a.txt", head: 50 })).toThrow('argument "head" of fs.read_text_file is fixed by this profile; leave it out');
  });
});
