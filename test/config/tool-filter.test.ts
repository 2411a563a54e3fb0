/** The `tools` key of a server, and the hosts' lists read into it, as the config reader checks them. */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { checkConfig } from "../../src/config/validate.js";

const read = (server: object) => checkConfig({ mcpServers: { s: { command: "s", ...server } } }, "mcpx.json", {});
const refusal = (server: object): string => {
  try {
    read(server);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("a server's tools filter", () => {
  it("takes allow and deny lists of names; absent, nothing is filtered", () => {
    expect(read({ tools: { allow: ["a"], deny: ["b"] } }).config.servers[0]?.tools).toEqual({ allow: ["a"], deny: ["b"] });
    expect(read({}).config.servers[0]?.tools).toBeUndefined();
    expect(read({ tools: { allow: [] } }).config.servers[0]?.tools).toEqual({ allow: [] });
  });

  it("refuses what is not a list of names, an unknown key, and a host's list beside the same mcpx list", () => {
    expect(refusal({ tools: { allow: "a" } })).toMatch(/mcpServers\.s\.tools\.allow must be an array of strings/);
    expect(refusal({ tools: { hide: ["a"] } })).toMatch(/mcpServers\.s\.tools\.hide is not a known key/);
    // A host's key makes the file a host's: the server is left out with the reason, not the file refused.
    expect(read({ tools: { deny: ["a"] }, disabledTools: ["b"] }).warnings.join("\n")).toMatch(
      /left out server "s": mcpServers\.s\.disabledTools says the same as "tools\.deny", which is set too; keep one/,
    );
  });

  it("reads Windsurf's disabledTools and Gemini's lists; an empty includeTools filters nothing, as in Gemini CLI", () => {
    expect(read({ disabledTools: ["x"] }).config.servers[0]?.tools).toEqual({ deny: ["x"] });
    expect(read({ includeTools: ["a"], excludeTools: ["b"] }).config.servers[0]?.tools).toEqual({ allow: ["a"], deny: ["b"] });
    expect(read({ includeTools: [] }).config.servers[0]?.tools).toBeUndefined();
  });
});
