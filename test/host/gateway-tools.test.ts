/**
 * The gateway tools' definitions: what a discovery-mode host lists stays under 1,500 tokens
 * (counted by the real tokenizer) however many servers are configured, and still names them;
 * the pinned tools are found by their SERVER__TOOL names, a passthrough server's too.
 */
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/load.js";
import { countTokens } from "../../src/discovery/tokens.js";
import { Catalogue } from "../../src/host/catalogue.js";
import { gatewayToolDefinitions, SERVER_NAMES_BUDGET, serverList } from "../../src/host/gateway-tools/definitions.js";
import { listedTools, missingPinned } from "../../src/host/gateway-tools/exposed-tools.js";
import { execToolDefinition } from "../../src/host/gateway-tools/exec.js";
import { agentTools } from "../../src/host/agent-tools.js";
import { emptyCatalog } from "../../src/upstream/catalog.js";
import { validateDefinition } from "../helpers/spec-validator.js";

/** Server names as long as the config allows them to be useful, and unlike each other. */
const SCRIPTS = { memoryMb: 64, timeoutSeconds: 30, outputKb: 64, maxCalls: 1000 };

const names = (count: number): string[] => Array.from({ length: count }, (_, i) => `team-${i}-internal_knowledge_base-${(i * 7919).toString(36)}`);

describe("the gateway tools", () => {
  it.each([1, 70, 500, 5000])("stay under 1,500 tokens with the question tools, for %i servers", (count) => {
    const tools = [...gatewayToolDefinitions(names(count)), execToolDefinition(names(count), SCRIPTS, true), ...agentTools(true)];
    expect(countTokens(JSON.stringify(tools))).toBeLessThan(1500);
  });

  it("name every server while they fit, then how many more there are and where to find them", () => {
    expect(serverList(["a", "b"])).toBe("a, b");
    const many = names(500);
    const list = serverList(many);
    expect(list.length).toBeLessThan(SERVER_NAMES_BUDGET + 60);
    const shown = list.split(" and ")[0]!.split(", ");
    expect(shown).toEqual(many.slice(0, shown.length));
    expect(list).toMatch(new RegExp(` and ${500 - shown.length} more: see mcpx__servers$`));
  });

  it("are valid Tool definitions of every revision mcpx serves", () => {
    for (const revision of ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const) {
      for (const tool of [
        ...gatewayToolDefinitions(["github"]),
        execToolDefinition(["github"], SCRIPTS, true),
        execToolDefinition(["github"], SCRIPTS, false),
      ]) {
        expect(validateDefinition(revision, "Tool", tool).errors).toEqual([]);
      }
    }
  });
});

describe("mcpx__exec's definition", () => {
  it("names each server by the global a program reaches it by, where that is another name", () => {
    const description = String(execToolDefinition(["github", "my-server", "console"], SCRIPTS, false).description);
    expect(description).toContain("(github, my-server as my_server, console as console_2)");
    expect(description).toContain("30 s, 64 MB, 1000 calls, 64 KB printed");
  });
});

describe("what the catalogue puts in a host's list", () => {
  const config = configFromObject(
    {
      mcpServers: { files: { command: "f" }, plain: { command: "p", passthrough: true } },
      expose: "discovery",
      pinned: ["plain__read", "files__write", "files__gone"],
    },
    "conf/mcpx.json",
    {},
  );
  const tool = (name: string) => ({ name, description: name, inputSchema: { type: "object" } });
  const catalogue = new Catalogue([
    { server: "files", passthrough: false, catalog: { ...emptyCatalog(), tools: [tool("write"), tool("list")] } },
    { server: "plain", passthrough: true, catalog: { ...emptyCatalog(), tools: [tool("read")] } },
  ]);

  it("is the gateway tools and the pinned tools, in the config's order, under the names hosts call them by", () => {
    expect(listedTools(config, catalogue).map((item) => item.name)).toEqual([
      "mcpx__search",
      "mcpx__describe",
      "mcpx__call",
      "mcpx__servers",
      "mcpx__exec",
      "read",
      "files__write",
    ]);
  });

  it("with expose all, is the whole catalogue", () => {
    expect(listedTools({ ...config, expose: "all" }, catalogue).map((item) => item.name)).toEqual([...catalogue.tools.map((item) => item.name), "mcpx__exec"]);
  });

  it("names the pinned tools an up server does not have", () => {
    expect(missingPinned(config, catalogue, ["files", "plain"])).toEqual(["files__gone"]);
    expect(missingPinned(config, catalogue, ["plain"])).toEqual([]);
  });
});
