/**
 * One server entry set in a host's own config file, in the host's own format, changing only
 * that entry: JSONC files through `setMember` (comments and layout kept), Codex's TOML by
 * appending or replacing one `[mcp_servers.NAME]` table as text, Continue's and Goose's YAML
 * through the `yaml` Document API (comments kept). The result is parsed again before it is
 * returned, so a file mcpx could not edit safely is refused, never damaged.
 */
import { isDeepStrictEqual } from "node:util";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { isMap, isSeq, parseDocument } from "yaml";
import { isObject } from "./check.js";
import { ConfigError } from "./errors.js";
import type { HostName } from "./host-formats.js";
import { hostFiles } from "./host-paths.js";
import { setMember } from "./jsonc-edit.js";

/** What `mcpx install` asks a host to run: a stdio server (and VS Code's `type`). */
export interface StdioEntry {
  type?: string;
  command: string;
  args: string[];
}

/** @throws ConfigError when the file cannot be read as the host's format, or the edit would not be safe. */
export function setHostServer(host: HostName, text: string, name: string, entry: StdioEntry, file: string): string {
  switch (host) {
    case "codex":
      return setCodexServer(text, name, { command: entry.command, args: entry.args }, file);
    case "continue":
      return setContinueServer(text, name, entry, file);
    case "goose":
      return setGooseExtension(text, name, entry, file);
    case "zed":
      return setMember(text, "context_servers", name, { source: "custom", command: entry.command, args: entry.args, env: {} }, file);
    default:
      return setMember(text, hostFiles(host).serversKey, name, entry, file);
  }
}

/**
 * The server `name` taken out of a Codex, Continue or Goose file (for `install --replace`),
 * the rest of the file kept; the JSONC hosts use `removeMember` with their `serversKey`.
 * @throws ConfigError when it is not there in a form mcpx can remove.
 */
export function removeHostServer(host: "codex" | "continue" | "goose", text: string, name: string, file: string): string {
  if (host === "codex") {
    const servers = parseTomlOrRefuse(text, file).mcp_servers;
    if (!isObject(servers) || !Object.hasOwn(servers, name)) return text;
    const out = replaceTable(text, name, "", file);
    const check = parseTomlOrRefuse(out, file).mcp_servers;
    if (isObject(check) && Object.hasOwn(check, name)) throw new ConfigError(`${file}: could not remove mcp_servers.${name} safely; nothing written`);
    return out;
  }
  const doc = parseDocument(text);
  refuseYamlErrors(doc.errors, file);
  if (host === "goose") {
    if (!doc.hasIn(["extensions", name])) return text;
    doc.deleteIn(["extensions", name]);
    return doc.toString();
  }
  const list = doc.get("mcpServers", true);
  if (!isSeq(list)) return text;
  const index = list.items.findIndex((node) => isMap(node) && node.get("name") === name);
  if (index === -1) return text;
  list.items.splice(index, 1);
  return doc.toString();
}

// A TOML bare key; anything else is written quoted.
const BARE = /^[A-Za-z0-9_-]+$/;

function setCodexServer(text: string, name: string, entry: Record<string, unknown>, file: string): string {
  const doc = parseTomlOrRefuse(text, file);
  const servers = doc.mcp_servers;
  if (servers !== undefined && !isObject(servers)) throw new ConfigError(`${file}: mcp_servers is not a table; nothing written`);
  const header = `[mcp_servers.${BARE.test(name) ? name : JSON.stringify(name)}]`;
  const block = `${header}\n${stringifyToml(entry)}`;
  let out: string;
  if (isObject(servers) && Object.hasOwn(servers, name)) {
    if (same(servers[name], entry)) return text;
    out = replaceTable(text, name, block, file);
  } else {
    out = text === "" ? block : `${text.replace(/\n*$/, "\n")}\n${block}`;
  }
  const check = parseTomlOrRefuse(out, file).mcp_servers;
  if (!isObject(check) || !same(check[name], entry)) throw new ConfigError(`${file}: could not set mcp_servers.${name} safely; nothing written`);
  return out;
}

/** Equal as data (TOML tables come with no prototype, so compare plain copies). */
function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
}

/** The lines of `[mcp_servers.NAME]` and its sub-tables replaced by `block`. */
function replaceTable(text: string, name: string, block: string, file: string): string {
  const lines = text.split("\n");
  const own = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:${literal(name)}|"${literal(name)}")\\s*(\\]|\\.)`);
  const start = lines.findIndex((line) => own.test(line) && /^\s*\[\s*mcp_servers\s*\.\s*[^.\]]+\s*\]/.test(line));
  if (start === -1)
    throw new ConfigError(`${file}: mcp_servers.${name} is not written as a [mcp_servers.${name}] table, which mcpx can replace; edit it by hand`);
  let end = start + 1;
  while (end < lines.length && !(/^\s*\[/.test(lines[end] ?? "") && !own.test(lines[end] ?? ""))) end++;
  // Blank lines and comments just before the next table stay with it.
  while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1] ?? "")) end--;
  const replacement = block === "" ? [] : block.replace(/\n$/, "").split("\n");
  // A table taken out takes the blank line that set it apart with it.
  const from = block === "" && start > 0 && /^\s*$/.test(lines[start - 1] ?? "") ? start - 1 : start;
  return [...lines.slice(0, from), ...replacement, ...lines.slice(end)].join("\n");
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function parseTomlOrRefuse(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch (err) {
    throw new ConfigError(`${file}: is not TOML mcpx can edit (${String((err as Error).message).split("\n")[0]}); nothing written`);
  }
}

/** Continue: an item of the `mcpServers` list, found by its `name`. A new file gets the keys Continue requires. */
function setContinueServer(text: string, name: string, entry: StdioEntry, file: string): string {
  const item = { name, command: entry.command, args: entry.args };
  const doc = parseDocument(text === "" ? "name: Local Config\nversion: 1.0.0\nschema: v1\n" : text);
  refuseYamlErrors(doc.errors, file);
  const list = doc.get("mcpServers", true);
  if (list === undefined) doc.set("mcpServers", doc.createNode([item]));
  else if (!isSeq(list)) throw new ConfigError(`${file}: mcpServers is not a list; nothing written`);
  else {
    const index = list.items.findIndex((node) => isMap(node) && node.get("name") === name);
    const node = list.items[index];
    if (index === -1) list.add(doc.createNode(item));
    else if (same(isMap(node) ? node.toJSON() : undefined, item)) return text;
    else list.items[index] = doc.createNode(item);
  }
  return doc.toString();
}

/** Goose: `extensions.NAME`, a stdio extension with the fields Goose writes for one. */
function setGooseExtension(text: string, name: string, entry: StdioEntry, file: string): string {
  const extension = {
    name,
    type: "stdio",
    cmd: entry.command,
    args: entry.args,
    enabled: true,
    envs: {},
    env_keys: [],
    timeout: 300,
    description: "mcpx: every MCP server of its config, behind one",
  };
  const doc = parseDocument(text);
  refuseYamlErrors(doc.errors, file);
  const extensions = doc.get("extensions", true);
  if (extensions !== undefined && !isMap(extensions)) throw new ConfigError(`${file}: extensions is not a mapping; nothing written`);
  const existing = isMap(extensions) ? extensions.get(name, true) : undefined;
  if (isMap(existing) && same(existing.toJSON(), extension)) return text;
  doc.setIn(["extensions", name], doc.createNode(extension));
  return doc.toString();
}

function refuseYamlErrors(errors: readonly { message: string }[], file: string): void {
  const [error] = errors;
  if (error) throw new ConfigError(`${file}: is not YAML mcpx can edit (${error.message.split("\n")[0]}); nothing written`);
}
