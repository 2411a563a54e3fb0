/** The pieces under `mcpx import`/`install`: dotenv, the edit-preserving JSONC writer, host file locations. */
import { describe, expect, it } from "vitest";
import { parseDotenv } from "../../src/config/dotenv.js";
import { hostFiles } from "../../src/config/host-paths.js";
import { parseJsonc } from "../../src/config/jsonc.js";
import { setMember } from "../../src/config/jsonc-edit.js";

describe("parseDotenv", () => {
  it("reads NAME=value lines, export, quotes and comments; reports lines it cannot read", () => {
    const text = '# c\nexport A=1\nB="two words\\n"\nC=\'$raw #x\'\nD=bare # comment\nE=\nnot a line\nF="unclosed\n';
    expect(parseDotenv(text)).toEqual({ vars: { A: "1", B: "two words\n", C: "$raw #x", D: "bare", E: "" }, bad: [7, 8] });
  });
});

describe("setMember", () => {
  it("adds a member after the last one, keeping comments, order and the file's indent", () => {
    const text = '{\n    // servers\n    "servers": {\n        "a": { "command": "a" }, // a\n    },\n    "inputs": []\n}\n';
    const out = setMember(text, "servers", "mcpx", { command: "node" }, "f");
    expect(out).toBe(
      '{\n    // servers\n    "servers": {\n        "a": { "command": "a" }, // a\n        "mcpx": {\n            "command": "node"\n        }\n    },\n    "inputs": []\n}\n',
    );
  });

  it("replaces an existing member in place and creates a missing container", () => {
    const replaced = setMember('{"x": 1, "mcpServers": {"mcpx": {"command": "old"}, "b": {}}}', "mcpServers", "mcpx", { command: "new" }, "f");
    expect(parseJsonc(replaced, "f")).toEqual({ x: 1, mcpServers: { mcpx: { command: "new" }, b: {} } });
    const created = setMember('{\n  "globalShortcut": ""\n}\n', "mcpServers", "mcpx", { command: "n" }, "f");
    expect(created).toBe('{\n  "globalShortcut": "",\n  "mcpServers": {\n    "mcpx": {\n      "command": "n"\n    }\n  }\n}\n');
    expect(setMember("", "mcpServers", "mcpx", {}, "f")).toBe('{\n  "mcpServers": {\n    "mcpx": {}\n  }\n}\n');
  });

  it("refuses text that is not a JSONC object", () => {
    expect(() => setMember("[1]", "mcpServers", "mcpx", {}, "f")).toThrow(/not a JSON object/);
    expect(() => setMember('{"mcpServers": []}', "mcpServers", "mcpx", {}, "f")).toThrow(/"mcpServers" is not an object/);
    expect(() => setMember("{,}", "mcpServers", "mcpx", {}, "f")).toThrow(/f:1:2/);
  });
});

describe("hostFiles", () => {
  const at = (platform: NodeJS.Platform, env = {}) => ({
    platform,
    home: platform === "win32" ? "C:\\Users\\a" : "/home/a",
    env,
    cwd: platform === "win32" ? "C:\\p" : "/p",
  });
  it("knows each host's file on macOS, Windows and Linux", () => {
    expect(hostFiles("claude-desktop", at("darwin")).write).toBe("/home/a/Library/Application Support/Claude/claude_desktop_config.json");
    expect(hostFiles("claude-desktop", at("win32", { APPDATA: "C:\\Users\\a\\AppData\\Roaming" })).write).toBe(
      "C:\\Users\\a\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
    );
    expect(hostFiles("claude-desktop", at("linux")).write).toBe("/home/a/.config/Claude/claude_desktop_config.json");
    expect(hostFiles("claude-code", at("linux"))).toEqual({ read: ["/home/a/.claude.json", "/p/.mcp.json"], write: "/p/.mcp.json", serversKey: "mcpServers" });
    expect(hostFiles("cursor", at("linux")).write).toBe("/home/a/.cursor/mcp.json");
    expect(hostFiles("vscode", at("darwin"))).toMatchObject({ write: "/home/a/Library/Application Support/Code/User/mcp.json", serversKey: "servers" });
    expect(hostFiles("vscode", at("linux", { XDG_CONFIG_HOME: "/x" })).read).toEqual(["/x/Code/User/mcp.json", "/p/.vscode/mcp.json"]);
    expect(hostFiles("windsurf", at("win32")).write).toBe("C:\\Users\\a\\.codeium\\windsurf\\mcp_config.json");
  });
});
