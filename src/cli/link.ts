/**
 * The page's links: what `mcpx serve --http` and `mcpx ui` print when they start, and
 * `mcpx link`, which mints a fresh one-time link for a running instance (any time later, from
 * any terminal of the same user: the code is signed with the API token in the state dir).
 */
import { join } from "node:path";
import { CODE_TTL_MS, pageLink } from "../api/page-codes.js";
import { stateDir } from "../broker/state-dir.js";
import { apiToken, TOKEN_FILE } from "../broker/token.js";
import type { HostCredential } from "../host/host-credential.js";
import { GatewayError } from "../protocol/errors.js";
import { CliError } from "./exit.js";

const MINUTES = CODE_TTL_MS / 60_000;

/** A wildcard bind's address as a browser on this machine reaches it. */
export function reachable(url: URL): URL {
  const copy = new URL(url);
  if (copy.hostname === "0.0.0.0") copy.hostname = "127.0.0.1";
  if (copy.hostname === "[::]") copy.hostname = "[::1]";
  return copy;
}

/** The page link and how scripts get in: lines for stderr. */
export function accessLines(link: URL, credential: HostCredential | undefined, dir: string): string {
  const port = link.port || "80";
  const scripts = credential
    ? `send the host credential from ${credential.from} as "Authorization: Bearer <token>" (also on /mcp)`
    : `send "Authorization: Bearer <token>" with the token in ${join(dir, TOKEN_FILE)}`;
  return (
    `mcpx: questions at ${link.href} (opens once, within ${MINUTES} min; \`mcpx link --port ${port}\` prints a fresh one)\n` +
    `mcpx: REST API at ${new URL("/v1/", link).href}: ${scripts}\n`
  );
}

export interface LinkOptions {
  host?: string;
  port?: number;
}

/** `mcpx link`: print a fresh one-time link to the page of the mcpx on host:port. */
export function link(options: LinkOptions): void {
  const host = options.host ?? "127.0.0.1";
  const base = new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${options.port ?? 7777}/`);
  let token: string;
  try {
    token = apiToken(stateDir());
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
  process.stdout.write(`${pageLink(token, base).href}\n`);
  process.stderr.write(`mcpx: the link opens the page once, within ${MINUTES} min, for the mcpx listening on port ${base.port}\n`);
}
