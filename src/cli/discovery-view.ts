/**
 * What every discovery command starts from: the config's servers as the schema cache knows
 * them. A server never read yet is read once, here, with a line on stderr naming it (unless
 * `--cached`); a server whose data is older than a day is said to be so. With a shared store
 * (`store.url`), a server this state directory never read is first looked for there
 * (shared-schemas.ts; with `--cached` too, which starts nothing), and read here only when the
 * store has no entry for its definition or cannot be reached.
 */
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import type { Config } from "../config/types.js";
import type { DiscoveryView, ServerView } from "../discovery/cache-read.js";
import { summaryView } from "../discovery/cache-summary.js";
import { inert } from "./inert.js";

export interface ViewOptions {
  /** Answer from the cache alone: never start a server. */
  cached?: boolean;
  /** Only these servers matter to the command: a never-read server outside them is not read, and with `schemas` the view holds these alone (the others' entries unread). */
  only?: readonly string[];
  /** The command needs the tools' schemas (not only names, descriptions and signatures). */
  schemas?: boolean;
}

/** Data older than this is pointed out on stderr. */
const OLD_MS = 24 * 3600 * 1000;

export async function discoveryView(config: Config, options: ViewOptions = {}): Promise<DiscoveryView> {
  const dir = ensurePrivateDir(stateDir());
  // with schemas, the entries of the servers that matter only (a view of them alone)
  const read = { schemas: options.schemas === true, ...(options.only ? { only: options.only } : {}) };
  let view = await readView(config, dir, read);
  const wanted = (server: ServerView): boolean => options.only === undefined || options.only.includes(server.server);
  const neverRead = (): ServerView[] => view.servers.filter((server) => server.state === "never read" && wanted(server));
  let unread = neverRead();
  if (unread.length === 0) return view;
  // With a shared store, another instance or machine may have read it: fetched from there before anything is started.
  const shared = config.store === undefined ? undefined : await (await import("./shared-schemas.js")).openCommandSchemas(config, dir);
  try {
    if (shared && (await shared.pull(unread.map((server) => server.config))).length > 0) {
      view = await readView(config, dir, read);
      unread = neverRead();
    }
    if (unread.length > 0 && options.cached !== true) {
      for (const server of unread)
        process.stderr.write(`mcpx: ${inert(server.server)} was never read; reading its catalogue once now (it is cached for later commands)\n`);
      const { readCatalogues } = await import("./read-catalogues.js");
      await readCatalogues(
        config,
        dir,
        unread.map((server) => server.server),
        shared?.schemas,
      );
      view = await readView(config, dir, read);
    }
  } finally {
    await shared?.close();
  }
  return view;
}

/** The summary answers most commands with a few small modules; the entries need the rest (loaded then). */
async function readView(config: Config, dir: string, read: { schemas: boolean; only?: readonly string[] }): Promise<DiscoveryView> {
  return (read.schemas ? undefined : summaryView(config, dir)) ?? (await import("../discovery/cache-read.js")).readDiscovery(config, dir, read);
}

/** "read 3 h ago", "never read", …: how old a server's data is, in words. */
export function ageWords(server: ServerView): string {
  if (server.state === "disabled") return "disabled";
  if (server.ageMs === undefined) return server.state === "last read failed" ? "read failed, never read" : "never read";
  const read = `read ${ago(server.ageMs)}`;
  return server.state === "last read failed" ? `last read failed (data ${read})` : read;
}

export function ago(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

/** A line on stderr for each of these servers whose data is more than a day old (design rule 12: say how old). */
export function warnIfOld(servers: ReadonlyArray<Pick<ServerView, "server" | "ageMs">>): void {
  for (const server of servers) {
    if (server.ageMs !== undefined && server.ageMs > OLD_MS) {
      process.stderr.write(`mcpx: ${inert(server.server)}'s catalogue was read ${ago(server.ageMs)}; mcpx refresh ${inert(server.server)} reads it again\n`);
    }
  }
}
