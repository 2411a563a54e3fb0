/**
 * The page's links: what `mcpx serve --http` and `mcpx ui` print when they start, and
 * `mcpx link`, which mints a fresh one-time link for a running instance (any time later, from
 * any terminal of the same user: the code is signed with the API token the store shares, the
 * state dir's file or, with the config's `store.url`, the Redis key every instance reads).
 * With `cluster.publicUrl` the link is for that address, the balancer's, which any instance
 * behind it takes.
 */
import { CODE_TTL_MS, pageLink } from "../api/page-codes.js";
import { stateDir, TOKEN_FILE } from "../broker/state-dir.js";
import { apiToken } from "../broker/token.js";
import { GatewayError } from "../protocol/errors.js";
import { CliError } from "./exit.js";
import type { HostCredential } from "../host/host-credential.js";
import type { Config } from "../config/types.js";
import { openCommandStore } from "./open-store.js";

const MINUTES = CODE_TTL_MS / 60_000;

/** A wildcard bind's address as a browser on this machine reaches it. */
export function reachable(url: URL): URL {
  const copy = new URL(url);
  if (copy.hostname === "0.0.0.0") copy.hostname = "127.0.0.1";
  if (copy.hostname === "[::]") copy.hostname = "[::1]";
  return copy;
}

/** The page link and how scripts get in: lines for stderr. `tokenWhere`: the store's `secrets.whereIs("api-token")`. */
export function accessLines(link: URL, credential: HostCredential | undefined, tokenWhere: string): string {
  const port = link.port || "80";
  const scripts = credential
    ? `send the host credential from ${credential.from} as "Authorization: Bearer <token>" (also on /mcp)`
    : `send "Authorization: Bearer <token>" with the token in ${tokenWhere}`;
  return (
    `mcpx: questions at ${link.href} (opens once, within ${MINUTES} min; \`mcpx link --port ${port}\` prints a fresh one)\n` +
    `mcpx: REST API at ${new URL("/v1/", link).href}: ${scripts}\n`
  );
}

export interface LinkOptions {
  host?: string;
  port?: number;
}

/** `mcpx link`: print a fresh one-time link to the page of the mcpx on host:port, or of the cluster at its public URL. */
export async function link(options: LinkOptions, config?: Pick<Config, "store" | "cluster">): Promise<void> {
  const base =
    config?.cluster?.publicUrl && options.port === undefined && options.host === undefined ? new URL("/", config.cluster.publicUrl) : localBase(options);
  let token: string;
  try {
    token = await apiTokenOf(config);
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
  process.stdout.write(`${pageLink(token, base).href}\n`);
  process.stderr.write(`mcpx: the link opens the page once, within ${MINUTES} min, for the mcpx at ${base.origin}\n`);
}

/** The shared store's token with `store.url`; else the state dir's file, read without opening the store. */
async function apiTokenOf(config: Pick<Config, "store"> | undefined): Promise<string> {
  if (!config?.store) return apiToken(stateDir());
  const store = await openCommandStore(config);
  try {
    return await store.secrets.get(TOKEN_FILE);
  } finally {
    await store.close();
  }
}

function localBase(options: LinkOptions): URL {
  const host = options.host ?? "127.0.0.1";
  return new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${options.port ?? 7777}/`);
}
