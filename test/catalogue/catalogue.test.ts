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
