/**
 * `mcpx servers`: each configured upstream's state, negotiated revision, counts, and why one
 * is down. From the schema cache (a server never read is started once, and so reported live);
 * with `--live`, every upstream is started, reported on, and stopped again.
 */
import type { Config, LeftOutServer, Sharing } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { createLogger } from "../util/log.js";
import type { LimitHit } from "../upstream/oversized-messages.js";
import type { Upstream } from "../upstream/upstream.js";
import { type Aliased, Catalogue, type Dropped } from "../host/catalogue.js";
import type { Catalog } from "../upstream/catalog.js";
import { inert, inertJson } from "./inert.js";
import { openStore } from "../broker/open-store.js";
import { STORE_FILE } from "../broker/sqlite/sqlite-store.js";
import type { BrokerStore } from "../broker/store-api.js";
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import { readDiscovery, type ServerView } from "../discovery/cache-read.js";
import { ago } from "./discovery-view.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { settled, stillStarting } from "./settled.js";

export interface ServerReport {
  name: string;
  state: string;
  transport: string | null;
  revision: string | null;
  server: { name?: unknown; version?: unknown } | null;
  tools: number;
  resources: number;
  resourceTemplates: number;
  prompts: number;
  reason: string | null;
  /** The last lines a stdio server wrote to stderr (an npm 404, a missing module), oldest first. */
  stderrTail: string[];
  /** Its stderr lines that say what is wrong ("Error: Cannot find module …"), oldest first. */
  stderrErrors: string[];
  /** What hosts do not see of this server, and why (a reserved or another server's name, the tools limit). */
  dropped: Array<Omit<Dropped, "server">>;
  /** Its resources that another server lists too, and the alias hosts reach them by. */
  aliased: Array<Omit<Aliased, "server">>;
  sharing: Sharing;
  /** Its questions in the store that no single host could be proven to own (design rule 5). */
  unattributedQuestions: number;
  /** Limits its messages went over (each dropped), e.g. `limits.maxUpstreamMessageBytes`. */
  limitsHit: LimitHit[];
  /** When what this says was read (ISO 8601): now for a server started by this command, else the cache entry's read; null: never. */
  readAt: string | null;
}

export function report(upstream: Upstream, catalogue: Catalogue, unattributed: (server: string) => number = () => 0, waitedMs?: number): ServerReport {
  return {
    name: upstream.name,
    state: upstream.state,
    transport: upstream.state === "disabled" ? null : (upstream.transport ?? null),
    revision: upstream.revision ?? null,
    server: upstream.serverInfo ? { name: upstream.serverInfo.name, version: upstream.serverInfo.version } : null,
    tools: upstream.catalog.tools.length,
    resources: upstream.catalog.resources.length,
    resourceTemplates: upstream.catalog.resourceTemplates.length,
    prompts: upstream.catalog.prompts.length,
    reason:
      upstream.reason ??
      (upstream.state === "disabled" ? DISABLED : undefined) ??
      (waitedMs === undefined ? undefined : stillStarting(upstream, waitedMs)) ??
      null,
    stderrTail: upstream.stderrTail.lines(),
    stderrErrors: upstream.stderrTail.errorLines(),
    dropped: catalogue.droppedFrom(upstream.name).map(({ server: _server, ...entry }) => entry),
    aliased: catalogue.aliasedFrom(upstream.name).map(({ server: _server, ...entry }) => entry),
    sharing: upstream.config.sharing,
    unattributedQuestions: unattributed(upstream.name),
    limitsHit: upstream.limitsHit.map((hit) => ({ ...hit })),
    readAt: upstream.state === "ready" ? new Date().toISOString() : null,
  };
}

/** States a report may have that are no failure. */
const FINE = new Set(["ready", "disabled", "cached"]);

export async function servers(config: Config, options: { json?: boolean; live?: boolean; cached?: boolean; daemon?: boolean }): Promise<number> {
  if (options.live === true) {
    const { daemonWanted, liveServers } = await import("./daemon-use.js");
    // The mcpx serving this config reports on its running upstreams (a daemon is started if none runs).
    if (daemonWanted(options.daemon === false))
      return printed([...((await liveServers(config.file)) as ServerReport[]), ...(config.leftOut ?? []).map(leftOutReport)], options);
  }
  const dir = ensurePrivateDir(stateDir());
  const view = readDiscovery(config, dir, { schemas: true }); // the whole entries: revision, transport, counts
  // Started here: every server with --live, else those never read (unless --cached).
  const started = view.servers.filter((server) => options.live === true || (server.state === "never read" && options.cached !== true));
  if (options.live !== true) {
    for (const server of started)
      process.stderr.write(`mcpx: ${inert(server.server)} was never read; starting it once now (it is cached for later commands)\n`);
  }
  const store = await existingStore(config);
  const counts = store
    ? await unattributedCounts(
        store,
        view.servers.map((server) => server.server),
      ).finally(() => store.close())
    : new Map<string, number>();
  const unattributed = (server: string): number => counts.get(server) ?? 0;
  const gateway =
    started.length > 0
      ? new Gateway({ ...config, servers: started.map((server) => server.config) }, createLogger({}, "error"), { schemaCache: dir })
      : undefined;
  const waitedMs = gateway ? await settled(gateway) : undefined;
  // One catalogue over every server, started or cached: what each leaves out (a name another
  // keeps, the tools limit, a tool the config hides) is reported as hosts would see it.
  const catalogue = new Catalogue(
    view.servers.flatMap((server) => {
      const upstream = gateway?.upstream(server.server);
      const catalog = upstream ? (upstream.state === "ready" || upstream.restarting ? upstream.catalog : undefined) : cachedCatalog(server);
      return catalog ? [{ server: server.server, passthrough: server.config.passthrough, catalog, tools: server.config.tools }] : [];
    }),
    { servers: config.servers.map((server) => server.name), maxToolsPerServer: config.limits.maxToolsPerServer },
  );
  const reports = [
    ...view.servers.map((server) => {
      const upstream = gateway?.upstream(server.server);
      return upstream ? report(upstream, catalogue, unattributed, waitedMs) : cachedReport(server, catalogue, unattributed(server.server));
    }),
    ...(config.leftOut ?? []).map(leftOutReport),
  ];
  await gateway?.stop();
  return printed(reports, options);
}

function printed(reports: ServerReport[], options: { json?: boolean }): number {
  if (options.json === true) {
    process.stdout.write(`${inertJson(JSON.stringify(reports, null, 2))}\n`);
  } else {
    process.stdout.write(table(reports));
  }
  return reports.every((entry) => FINE.has(entry.state)) ? 0 : 1;
}

/** A server as the schema cache knows it: `cached`, or `down` when its last read failed, or `disabled`, or `never read` (with --cached). */
function cachedReport(server: ServerView, catalogue: Catalogue, unattributedQuestions: number): ServerReport {
  const read = server.entry?.read;
  return {
    name: server.server,
    state: server.state === "last read failed" ? "down" : server.state,
    transport: read?.transport ?? null,
    revision: read?.revision ?? null,
    server: read?.serverInfo ? { name: read.serverInfo.name, version: read.serverInfo.version } : null,
    tools: read?.tools.length ?? 0,
    resources: read?.resources.length ?? 0,
    resourceTemplates: read?.resourceTemplates.length ?? 0,
    prompts: read?.prompts.length ?? 0,
    reason: server.failure?.reason ?? (server.state === "disabled" ? DISABLED : null),
    stderrTail: [],
    stderrErrors: [],
    dropped: catalogue.droppedFrom(server.server).map(({ server: _server, ...entry }) => entry),
    aliased: catalogue.aliasedFrom(server.server).map(({ server: _server, ...entry }) => entry),
    sharing: server.config.sharing,
    unattributedQuestions,
    limitsHit: [],
    readAt: server.readAt ?? null,
  };
}

/** What a server's cache entry says it offers, when its last read is what hosts would see (not disabled, not down). */
function cachedCatalog(server: ServerView): Catalog | undefined {
  const read = server.entry?.read;
  if (!read || server.state !== "cached") return undefined;
  return { tools: read.tools.map(({ tool }) => tool), prompts: read.prompts, resources: read.resources, resourceTemplates: read.resourceTemplates };
}

/** A server of the file that mcpx left out: `disabled` when the file disables it anyway, else `left-out`. */
function leftOutReport(entry: LeftOutServer): ServerReport {
  return {
    name: entry.name,
    state: entry.disabled ? "disabled" : "left-out",
    transport: null,
    revision: null,
    server: null,
    tools: 0,
    resources: 0,
    resourceTemplates: 0,
    prompts: 0,
    reason: entry.why,
    stderrTail: [],
    stderrErrors: [],
    dropped: [],
    aliased: [],
    sharing: "shared",
    unattributedQuestions: 0,
    limitsHit: [],
    readAt: null,
  };
}

function table(reports: ServerReport[]): string {
  if (reports.length === 0) return "no servers configured\n";
  const rows = [
    ["SERVER", "STATE", "REVISION", "TRANSPORT", "TOOLS", "RESOURCES", "PROMPTS"],
    ...reports.map((entry) => [
      entry.name,
      entry.state === "cached" && entry.readAt ? `cached, read ${ago(Date.now() - Date.parse(entry.readAt))}` : entry.state,
      entry.revision ?? "-",
      entry.transport ?? "-",
      String(entry.tools),
      String(entry.resources + entry.resourceTemplates),
      String(entry.prompts),
    ]),
  ].map((row) => row.map(inert)); // upstream text (a revision, a reason) printed inert
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  let out = `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
  for (const entry of reports) {
    if (!entry.reason) continue;
    out += `\n${inert(entry.name)}: ${entry.state}: ${inert(entry.reason)}`;
    const tail = entry.stderrTail.slice(-TABLE_TAIL_LINES);
    // What it said is wrong comes first, unless the reason quotes it or the tail below shows it.
    const wrong = entry.stderrErrors.filter((line) => !entry.reason?.includes(line.trim()) && !tail.includes(line));
    if (wrong.length) out += `\n  its stderr says:\n${wrong.map((line) => `    ${inert(line)}`).join("\n")}`;
    if (tail.length) out += `\n  its stderr ended with:\n${tail.map((line) => `    ${inert(line)}`).join("\n")}`;
  }
  const notes = reports.flatMap((entry) => [
    ...entry.dropped.map((item) => `${entry.name}: left out ${KIND_WORDS[item.kind]} ${quoted(item.name)}: ${inert(item.message)}`),
    ...entry.limitsHit.map(
      (hit) =>
        `${inert(entry.name)}: dropped ${hit.dropped === 1 ? "a message" : `${hit.dropped} messages`} over ${hit.limit} (${hit.limitBytes} bytes), the largest ${hit.largestBytes} bytes; raise it if messages this large are expected`,
    ),
    ...entry.aliased.map(
      (item) => `${entry.name}: resource ${quoted(item.uri)} is served as ${quoted(item.alias)}: server "${item.keptBy}", earlier in the config, lists it too`,
    ),
  ]);
  if (notes.length) out += `\n\n${notes.join("\n")}`;
  const unproven = reports.filter((entry) => entry.sharing === "shared" && entry.unattributedQuestions > 0);
  if (unproven.length) out += `\n\n${unproven.map(perHostHint).join("\n")}`;
  return out.endsWith("\n") ? out : `${out}\n`;
}

/** A server that asks questions while several hosts share it should have a connection per host. */
function perHostHint(entry: ServerReport): string {
  const count = entry.unattributedQuestions === 1 ? "1 question" : `${entry.unattributedQuestions} questions`;
  return (
    `${inert(entry.name)}: asked ${count} that no single host could be proven to own (hosts share its connection), ` +
    `so they waited for a person; give it "sharing": "per-host" so its questions reach the host that asked`
  );
}

/** The broker's store, when this user has one; `mcpx servers` never creates the state directory's. */
async function existingStore(config: Config): Promise<BrokerStore | undefined> {
  const dir = stateDir();
  if (!config.store && !existsSync(join(dir, STORE_FILE))) return undefined;
  try {
    return await openStore({ stateDir: dir, ...(config.store ? { url: config.store.url } : {}) });
  } catch {
    return undefined; // what the store says is a hint here, never a reason to fail
  }
}

/** How many of each server's questions no host or call could be proven to own. */
export async function unattributedCounts(store: BrokerStore, servers: readonly string[]): Promise<Map<string, number>> {
  return new Map(await Promise.all(servers.map(async (server) => [server, await store.questions.unattributedFrom(server)] as const)));
}

/** Why a server the config disables is not run. */
const DISABLED = 'the config sets "disabled": true (or it needs a VS Code input that is not set; see the warning)';

/** How much of a down server's stderr the table shows; `--json` has the whole tail. */
const TABLE_TAIL_LINES = 5;

const KIND_WORDS: Record<Dropped["kind"], string> = { tool: "tool", prompt: "prompt", resource: "resource", resourceTemplate: "resource template" };

/** Upstream names are printed quoted with every control character escaped, so they cannot drive the terminal. */
function quoted(text: string): string {
  return inertJson(JSON.stringify(text));
}
