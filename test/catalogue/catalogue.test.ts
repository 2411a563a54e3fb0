/**
 * The merged catalogue as a pure structure: names, conflicts settled by config order, and the
 * URI a host knows a resource by when two servers list the same one.
 */
import { describe, expect, it } from "vitest";
import { Catalogue } from "../../src/host/catalogue.js";

const catalog = (resources: string[], templates: string[] = []) => ({
  tools: [],
  prompts: [],
  resources: resources.map((uri) => ({ uri, name: uri })),
  resourceTemplates: templates.map((uriTemplate) => ({ uriTemplate, name: uriTemplate })),
});

describe("resources in the merged catalogue", () => {
  const catalogue = new Catalogue([
    { server: "a", passthrough: false, catalog: catalog(["file:///shared", "file:///only-a"]) },
    { server: "b", passthrough: false, catalog: catalog(["file:///shared"], ["memo://{id}"]) },
  ]);

  it("keeps a unique URI as it is and aliases the second claim to a shared one", () => {
    const uris = catalogue.resources.map((resource) => resource.uri);
    expect(uris).toEqual(["file:///shared", "file:///only-a", "mcpx://b/file%3A%2F%2F%2Fshared"]);
    expect(catalogue.resource("mcpx://b/file%3A%2F%2F%2Fshared")).toEqual({ server: "b", original: "file:///shared" });
    expect(catalogue.resource("file:///shared")).toEqual({ server: "a", original: "file:///shared" });
  });

  it("maps an upstream's own URI back to the one its hosts subscribed to", () => {
    expect(catalogue.exposedUri("a", "file:///shared")).toBe("file:///shared");
    expect(catalogue.exposedUri("b", "file:///shared")).toBe("mcpx://b/file%3A%2F%2F%2Fshared");
    expect(catalogue.exposedUri("b", "memo://42")).toBe("memo://42");
  });

  it("routes a URI no server listed to the server whose template matches it", () => {
    expect(catalogue.resource("memo://42")).toEqual({ server: "b", original: "memo://42" });
    expect(catalogue.resource("nothing://here")).toBeUndefined();
  });
});

describe("who owns a name or URI", () => {
  const named = (tools: string[], resources: string[] = [], templates: string[] = []) => ({
    ...catalog(resources, templates),
    tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })),
  });

  it("a <server>__ name is that configured server's even while it is down, so no passthrough server takes it meanwhile", () => {
    const catalogue = new Catalogue([{ server: "p", passthrough: true, catalog: named(["files__read", "p__own", "mcpx__x", "plain"]) }], {
      servers: ["p", "files"],
    });
    expect(catalogue.tools.map((tool) => tool.name)).toEqual(["p__own", "plain"]);
    expect(catalogue.droppedFrom("p").map((entry) => [entry.name, entry.reason, entry.keptBy])).toEqual([
      ["files__read", "namespace", "files"],
      ["mcpx__x", "reserved", undefined],
    ]);
  });

  it("a name listed twice by one server keeps the first", () => {
    const catalogue = new Catalogue([{ server: "a", passthrough: false, catalog: named(["x", "x"]) }]);
    expect(catalogue.tools).toHaveLength(1);
    expect(catalogue.dropped).toMatchObject([
      { server: "a", name: "x", reason: "taken", keptBy: "a", message: "it lists that tool name more than once; the first is kept" },
    ]);
  });

  it("the most specific template owns a URI, ties go by config order, and a listed URI beats every template", () => {
    const catalogue = new Catalogue([
      { server: "wide", passthrough: false, catalog: catalog([], ["{+any}", "file:///{+path}"]) },
      { server: "docs", passthrough: false, catalog: catalog(["file:///etc/listed"], ["file:///docs/{name}", "file:///{+other}"]) },
    ]);
    expect(catalogue.resource("file:///docs/a.md")?.server).toBe("docs");
    expect(catalogue.resource("file:///src/a.ts")?.server).toBe("wide");
    expect(catalogue.resource("file:///etc/listed")?.server).toBe("docs");
    expect(catalogue.resource("https://example.com/")?.server).toBe("wide");
    expect(catalogue.resource("mcpx://docs/whatever")).toBeUndefined();
  });

  it("a server cannot announce updates of a URI hosts read from another server", () => {
    const catalogue = new Catalogue([
      { server: "a", passthrough: false, catalog: catalog(["memo://a"]) },
      { server: "b", passthrough: false, catalog: catalog([], ["{+any}"]) },
    ]);
    expect(catalogue.exposedUri("a", "memo://a")).toBe("memo://a");
    expect(catalogue.exposedUri("b", "memo://a")).toBeUndefined();
    expect(catalogue.exposedUri("b", "memo://b")).toBe("memo://b");
  });
});
