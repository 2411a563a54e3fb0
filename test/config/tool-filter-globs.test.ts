/**
 * `tools.allow` and `tools.deny` entries are globs (issue 14 item 5): the catalogue hosts see,
 * and therefore tools/list and tools/call, leave out every tool a glob hides, and an exact
 * name still means that one tool, even one with glob characters in it.
 */
import { describe, expect, it } from "vitest";
import { hiddenBy } from "../../src/config/tool-filter.js";
import { Catalogue } from "../../src/host/catalogue.js";

const tools = (...names: string[]) => ({
  tools: names.map((name) => ({ name, inputSchema: { type: "object" } })),
  prompts: [],
  resources: [],
  resourceTemplates: [],
});

describe("tool filters with globs", () => {
  it("deny globs hide every tool they match; allow globs keep only theirs", () => {
    expect(hiddenBy({ deny: ["delete_*"] }, "delete_file")).toBe("deny");
    expect(hiddenBy({ deny: ["delete_*"] }, "read_file")).toBeUndefined();
    expect(hiddenBy({ allow: ["read_*", "list_*"] }, "list_directory")).toBeUndefined();
    expect(hiddenBy({ allow: ["read_*", "list_*"] }, "write_file")).toBe("allow");
    expect(hiddenBy({ allow: ["{get,search}_*"] }, "search_issues")).toBeUndefined();
    expect(hiddenBy({ allow: ["*"], deny: ["*_admin"] }, "reset_admin")).toBe("deny");
  });

  it("an exact name still works, glob characters and all", () => {
    expect(hiddenBy({ deny: ["read_file"] }, "read_file")).toBe("deny");
    expect(hiddenBy({ deny: ["read_file"] }, "read_files")).toBeUndefined();
    expect(hiddenBy({ allow: ["weird[1]"] }, "weird[1]")).toBeUndefined();
    expect(hiddenBy({ deny: ["a.b"] }, "a.b")).toBe("deny");
  });

  it("the catalogue (tools/list, tools/call by name) leaves them out", () => {
    const catalogue = new Catalogue([
      {
        server: "fs",
        passthrough: false,
        catalog: tools("read_file", "read_dir", "write_file", "delete_file"),
        tools: { allow: ["read_*", "delete_*"], deny: ["delete_*"] },
      },
    ]);
    expect(catalogue.tools.map((tool) => tool.name)).toEqual(["fs__read_file", "fs__read_dir"]);
    expect(catalogue.tool("fs__delete_file")).toBeUndefined();
    expect(catalogue.tool("fs__write_file")).toBeUndefined();
  });
});
