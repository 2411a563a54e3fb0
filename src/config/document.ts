/**
 * A config file's text made into the document the config reader checks: JSONC, TOML or YAML
 * (by the file's extension, else by its first character), and, for the hosts whose files are
 * shaped differently from the `mcpServers` convention (Codex, Zed, Gemini CLI, Continue,
 * Goose), their servers rewritten as `mcpServers` entries by that host's reader, with one
 * warning for what was passed by. Other files come back as parsed, for `checkConfig` to place
 * by name and keys. The readers are not imported here: host-document.ts has them all, and
 * read-config.ts loads one only for a file that needs it (most configs need none).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { isObject } from "./check.js";
import { ConfigError } from "./errors.js";
import { type FileStyle, type HostName, ignoredWarning } from "./host-formats.js";
import type { HostServers } from "./hosts/entries.js";
import { parseJsonc } from "./jsonc.js";
import { orderedObject } from "./ordered.js";

/** The config file's text. @throws ConfigError for a missing or unreadable file. */
export function readConfigText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ConfigError(`no config file: looked for ${path.resolve(file)}`);
    if (code === "EISDIR") throw new ConfigError(`${file}: is a directory, not a config file`);
    throw new ConfigError(`${file}: cannot read the config file (${code ?? (err as Error).message})`);
  }
}

export type Syntax = "json" | "toml" | "yaml";

/** The TOML and YAML parsers load only for a file that needs them: most configs are JSON, and every command reads one. */
const load = createRequire(import.meta.url);
const toml = (): typeof import("smol-toml") => load("smol-toml") as typeof import("smol-toml");
const yaml = (): typeof import("yaml") => load("yaml") as typeof import("yaml");

export interface ConfigDocument {
  /** What `checkConfig` reads. */
  doc: unknown;
  /** Set when the file is one of the hosts read here: `checkConfig` takes it as it is. */
  style?: FileStyle;
  /** What the person should hear once: keys passed by, servers mcpx cannot run. */
  warnings: string[];
  /** A server's name as the host file writes it, where the reader had to rename it (Continue's labels). */
  writtenAs: ReadonlyMap<string, string>;
}

/** A host reader: its servers rewritten as `mcpServers` entries (config/hosts/). */
export type HostReader = (doc: Record<string, unknown>) => HostServers;

/** The hosts whose files are shaped differently, read by a reader of their own (host-readers.ts). */
export const READ_HOSTS: readonly HostName[] = ["codex", "zed", "gemini", "continue", "goose"];

/** A file's text parsed, and which of the hosts with a reader of their own wrote it, if one did. */
export interface ParsedDocument {
  raw: unknown;
  host?: HostName;
}

/** @throws ConfigError for a syntax error, naming the file, line and column. */
export function parseDocument(text: string, file: string): ParsedDocument {
  const syntax = syntaxOf(file, text);
  const raw = parseText(syntax, text, file);
  const host = isObject(raw) ? hostOf(syntax, file, raw) : undefined;
  return host && READ_HOSTS.includes(host) ? { raw, host } : { raw };
}

/** The document `checkConfig` reads: as parsed, or, for a host with a reader, rewritten by it. */
export function configDocument(parsed: ParsedDocument, file: string, read: HostReader | undefined): ConfigDocument {
  const { raw, host } = parsed;
  if (!host || !read || !isObject(raw)) return { doc: raw, warnings: [], writtenAs: new Map() };
  const servers = read(raw);
  const ignored = ignoredWarning(file, servers.ignored);
  return {
    doc: { mcpServers: orderedObject(servers.entries) },
    style: { host, hostFile: true },
    warnings: [
      ...(ignored ? [ignored] : []),
      ...servers.renamed.map(({ from, to }) => `${file}: server ${JSON.stringify(from)} is served as "${to}" (mcpx names use letters, digits, "_" and "-")`),
      ...leftOutWarnings(file, servers.leftOut),
    ],
    writtenAs: new Map(servers.renamed.map(({ from, to }) => [to, from])),
  };
}

/** By extension; otherwise `{` (after comments) means JSON, a `[table]` line TOML, and the rest YAML. */
export function syntaxOf(file: string, text: string): Syntax {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".toml") return "toml";
  if (ext === ".yaml" || ext === ".yml") return "yaml";
  if (ext === ".json" || ext === ".jsonc") return "json";
  const body = text.replace(/^\uFEFF/, "").replace(/^(\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/|#[^\n]*\n)*/, "");
  if (body === "" || body.startsWith("{") || body.startsWith("//") || body.startsWith("/*")) return "json";
  if (/^\s*\[[^\]\n]+\]\s*(#.*)?$/m.test(text) || /^[A-Za-z0-9_."-]+\s*=/.test(body)) return "toml";
  return "yaml";
}

function parseText(syntax: Syntax, text: string, file: string): unknown {
  if (syntax === "json") return parseJsonc(text, file);
  if (syntax === "toml") {
    try {
      return toml().parse(text);
    } catch (err) {
      if (!(err instanceof toml().TomlError)) throw err;
      const what = err.message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? "invalid TOML";
      throw new ConfigError(`${file}:${err.line}:${err.column}: ${what}`);
    }
  }
  const doc = yaml().parseDocument(text, { uniqueKeys: true });
  const [error] = doc.errors;
  if (error) {
    const at = error.linePos?.[0];
    const what = (error.message.split("\n")[0] ?? "invalid YAML").replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(`${file}${at ? `:${at.line}:${at.col}` : ""}: ${what}`);
  }
  return doc.toJS({ maxAliasCount: 100 }) ?? {};
}

/** Which of the hosts read here wrote the file, by its place and its keys. */
function hostOf(syntax: Syntax, file: string, doc: Record<string, unknown>): HostName | undefined {
  const resolved = path.resolve(file);
  const base = path.basename(resolved);
  const dir = path.basename(path.dirname(resolved));
  if (syntax === "toml") return Object.hasOwn(doc, "mcpServers") ? undefined : "codex";
  if (syntax === "yaml") {
    if (isObject(doc.extensions) || (dir === "goose" && !Object.hasOwn(doc, "mcpServers"))) return "goose";
    if (Array.isArray(doc.mcpServers) || dir === ".continue" || dir === "mcpServers") return "continue";
    return undefined;
  }
  if (Object.hasOwn(doc, "context_servers") || (base === "settings.json" && (dir === "zed" || dir === "Zed" || dir === ".zed"))) return "zed";
  if (base === "settings.json" && dir === ".gemini") return "gemini";
  const servers = doc.mcpServers;
  if (isObject(servers) && Object.values(servers).some((entry) => isObject(entry) && Object.hasOwn(entry, "httpUrl"))) return "gemini";
  return undefined;
}

/** One line per reason, naming the servers it applies to. */
function leftOutWarnings(file: string, leftOut: HostServers["leftOut"]): string[] {
  const byWhy = new Map<string, string[]>();
  for (const { name, why } of leftOut) byWhy.set(why, [...(byWhy.get(why) ?? []), JSON.stringify(name)]);
  return [...byWhy].map(([why, names]) => `${file}: left out ${names.length === 1 ? "server" : "servers"} ${names.join(", ")}: ${why}`);
}
