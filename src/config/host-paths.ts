/**
 * Where each host keeps its MCP config, per OS (from each host's documentation). Claude
 * Desktop has no official Linux build; the path is the one its unofficial builds use.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { Env } from "./env.js";
import type { HostName } from "./host-formats.js";

export interface Where {
  platform: NodeJS.Platform;
  home: string;
  env: Env;
  cwd: string;
}

export interface HostFiles {
  /** Files `mcpx import` reads, the broader scope first (a later file's server wins). */
  read: string[];
  /** The file `mcpx install` writes. */
  write: string;
  /** The key the host lists its servers under. */
  serversKey: "mcpServers" | "servers" | "mcp_servers" | "context_servers" | "extensions";
}

export const HOST_NAMES: readonly HostName[] = [
  "claude-desktop",
  "claude-code",
  "cursor",
  "vscode",
  "windsurf",
  "cline",
  "codex",
  "zed",
  "gemini",
  "continue",
  "goose",
];

const HERE: Where = { platform: process.platform, home: homedir(), env: process.env, cwd: process.cwd() };

export function hostFiles(host: HostName, where: Where = HERE): HostFiles {
  const { home, cwd } = where;
  const p = where.platform === "win32" ? path.win32 : path.posix;
  // The per-user application-data folder: what Electron apps call "appData".
  const appData =
    where.platform === "darwin"
      ? p.join(home, "Library", "Application Support")
      : where.platform === "win32"
        ? (where.env.APPDATA ?? p.join(home, "AppData", "Roaming"))
        : (where.env.XDG_CONFIG_HOME ?? p.join(home, ".config"));
  const vscodeUser = p.join(appData, "Code", "User");
  switch (host) {
    case "claude-desktop": {
      const file = p.join(appData, "Claude", "claude_desktop_config.json");
      return { read: [file], write: file, serversKey: "mcpServers" };
    }
    case "claude-code":
      // ~/.claude.json holds the user scope (and each project's local scope); .mcp.json the project's.
      return { read: [p.join(home, ".claude.json"), p.join(cwd, ".mcp.json")], write: p.join(cwd, ".mcp.json"), serversKey: "mcpServers" };
    case "cursor":
      return {
        read: [p.join(home, ".cursor", "mcp.json"), p.join(cwd, ".cursor", "mcp.json")],
        write: p.join(home, ".cursor", "mcp.json"),
        serversKey: "mcpServers",
      };
    case "vscode":
      return { read: [p.join(vscodeUser, "mcp.json"), p.join(cwd, ".vscode", "mcp.json")], write: p.join(vscodeUser, "mcp.json"), serversKey: "servers" };
    case "windsurf": {
      const file = p.join(home, ".codeium", "windsurf", "mcp_config.json");
      return { read: [file], write: file, serversKey: "mcpServers" };
    }
    case "cline": {
      const file = p.join(vscodeUser, "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json");
      return { read: [file], write: file, serversKey: "mcpServers" };
    }
    case "codex": {
      const file = p.join(where.env.CODEX_HOME ?? p.join(home, ".codex"), "config.toml");
      return { read: [file], write: file, serversKey: "mcp_servers" };
    }
    case "zed": {
      // Zed keeps ~/.config/zed on macOS too; on Windows it is under %APPDATA%.
      const dir = where.platform === "win32" ? p.join(appData, "Zed") : p.join(where.env.XDG_CONFIG_HOME ?? p.join(home, ".config"), "zed");
      const file = p.join(dir, "settings.json");
      return { read: [file, p.join(cwd, ".zed", "settings.json")], write: file, serversKey: "context_servers" };
    }
    case "gemini": {
      const file = p.join(home, ".gemini", "settings.json");
      return { read: [file, p.join(cwd, ".gemini", "settings.json")], write: file, serversKey: "mcpServers" };
    }
    case "continue": {
      const file = p.join(home, ".continue", "config.yaml");
      return { read: [file, ...blocks(p.join(cwd, ".continue", "mcpServers"), p)], write: file, serversKey: "mcpServers" };
    }
    case "goose": {
      const dir =
        where.platform === "win32" ? p.join(appData, "Block", "goose", "config") : p.join(where.env.XDG_CONFIG_HOME ?? p.join(home, ".config"), "goose");
      const file = p.join(dir, "config.yaml");
      return { read: [file], write: file, serversKey: "extensions" };
    }
  }
}

/** Continue's block files in a workspace's `.continue/mcpServers/` (YAML, or JSON in the common shape), by name. */
function blocks(dir: string, p: path.PlatformPath): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => /\.(ya?ml|json)$/i.test(name))
      .sort()
      .map((name) => p.join(dir, name));
  } catch {
    return [];
  }
}
