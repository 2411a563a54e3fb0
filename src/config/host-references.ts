/**
 * What a `${...}` reference that hosts define means in one host file, read once for both
 * `mcpx serve` (which resolves it) and `mcpx import` (which rewrites it for mcpx's own file),
 * so the two cannot disagree about a server.
 */
import { homedir } from "node:os";
import path from "node:path";

/** One reference's meaning; undefined from `readHostReference` means "not a host's: mcpx's `${NAME}`". */
export type HostReference =
  | { kind: "env"; name: string }
  | { kind: "input"; id: string }
  /** Windsurf's `${file:path}`, the path absolute (relative ones are the host file's folder's). */
  | { kind: "file"; file: string; given: string }
  | { kind: "value"; value: string }
  /** A reference that means nothing for this file: the server using it must not run on a guess. */
  | { kind: "none"; problem: string };

const PROJECT_FOLDERS = [".vscode", ".cursor", ".windsurf"];
const WORKSPACE_NAMES = new Set(["workspaceFolder", "workspaceFolderBasename"]);

/**
 * The folder `${workspaceFolder}` means: the one holding a project's `.vscode/`, `.cursor/` or
 * `.windsurf/`. A user-level file (`~/.cursor/mcp.json`, VS Code's `User/mcp.json`, Claude
 * Desktop's, …) has no workspace: undefined, never the home or settings folder.
 */
export function workspaceFolder(file: string): string | undefined {
  const dir = path.dirname(path.resolve(file));
  if (!PROJECT_FOLDERS.includes(path.basename(dir))) return undefined;
  const project = path.dirname(dir);
  return project === path.resolve(homedir()) ? undefined : project;
}

/**
 * Reads the text between `${` and `}` as a host's reference. `${env:…}`, `${input:…}` and
 * `${file:…}` cannot be mistaken for mcpx's `${NAME}`, so they count in every file; the bare
 * predefined names (`${userHome}`, `${workspaceFolder}`, …) only in a host's file.
 */
export function readHostReference(body: string, file: string, hostFile: boolean): HostReference | undefined {
  const colon = body.indexOf(":");
  const [kind, rest] = colon > 0 ? [body.slice(0, colon), body.slice(colon + 1)] : [body, ""];
  if (kind === "env" && rest !== "") return { kind: "env", name: rest };
  if (kind === "input" && rest !== "") return { kind: "input", id: rest };
  if (kind === "file" && rest !== "") {
    const absolute = rest.startsWith("~/") ? path.join(homedir(), rest.slice(2)) : path.resolve(path.dirname(path.resolve(file)), rest);
    return { kind: "file", file: absolute, given: rest };
  }
  if (!hostFile || colon !== -1) return undefined;
  if (WORKSPACE_NAMES.has(body)) {
    const workspace = workspaceFolder(file);
    if (workspace === undefined) {
      return {
        kind: "none",
        problem: `uses \${${body}}, but ${file} is a user-level file with no workspace (only a project's .vscode/, .cursor/ or .windsurf/ file has one); mcpx will not guess a folder: write the path instead`,
      };
    }
    return { kind: "value", value: body === "workspaceFolder" ? workspace : path.basename(workspace) };
  }
  const predefined: Record<string, string> = { userHome: homedir(), cwd: process.cwd(), pathSeparator: path.sep, "/": path.sep };
  return Object.hasOwn(predefined, body) ? { kind: "value", value: predefined[body] ?? "" } : undefined;
}
