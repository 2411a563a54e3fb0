/**
 * `mcpx auth list|login|logout`: the person's sign-ins to servers that require OAuth. Thin: the
 * flow is upstream/oauth's (login.ts, revoke.ts); this prints. No surface shows a token: the
 * list says whose, which scopes, until when, and whether it can be refreshed.
 */
import { spawn } from "node:child_process";
import type { Config, ServerConfig } from "../config/types.js";
import { stateDir } from "../broker/state-dir.js";
import { processOAuth } from "../upstream/oauth/process-context.js";
import { signInNow } from "../upstream/oauth/login.js";
import { revokeTokens } from "../upstream/oauth/revoke.js";
import { LOCAL_IDENTITY, type CredentialSummary, type SignInPrompt } from "../upstream/oauth/types.js";
import { createLogger } from "../util/log.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";
import { duration } from "../broker/settled-why.js";

/** `mcpx auth list [--json]`: every sign-in kept, never a token. */
export function authList(options: { json?: boolean }): number {
  const rows = processOAuth(stateDir(), [], 0).store.list();
  if (options.json) {
    process.stdout.write(`${inertJson(JSON.stringify(rows.map(listed), null, 2))}\n`);
    return Exit.Ok;
  }
  if (rows.length === 0) {
    process.stdout.write("no sign-ins kept (mcpx auth login SERVER signs in)\n");
    return Exit.Ok;
  }
  for (const row of rows) {
    const scopes = row.scopes ? ` for ${inert(row.scopes)}` : "";
    const identity = row.identity === LOCAL_IDENTITY ? "" : ` as ${inert(row.identity)}`;
    process.stdout.write(`${inert(row.server)}${identity}${scopes}: ${expiry(row)}${row.hasRefreshToken ? ", refreshed when needed" : ""}\n`);
  }
  return Exit.Ok;
}

function listed(row: CredentialSummary): object {
  return {
    server: row.server,
    identity: row.identity,
    url: row.definition,
    scopes: row.scopes ?? null,
    expiresAt: row.expiresAt === undefined ? null : new Date(row.expiresAt).toISOString(),
    refreshable: row.hasRefreshToken,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function expiry(row: CredentialSummary): string {
  if (row.expiresAt === undefined) return "signed in (no expiry given)";
  const left = row.expiresAt - Date.now();
  return left > 0 ? `signed in, token valid for ${duration(left)}` : `token expired ${duration(-left)} ago`;
}

/** `mcpx auth login SERVER [--open]`: sign in now, the URL printed in full; exits 0 once signed in. */
export async function authLogin(config: Config, name: string, options: { open?: boolean }): Promise<number> {
  const server = serverNamed(config, name);
  const oauth = processOAuth(stateDir(), config.servers, config.elicitation.ttlSeconds * 1000);
  const log = createLogger({ server: name }, "warn");
  try {
    await signInNow({
      server,
      oauth,
      log,
      fresh: true,
      ask: async (prompt) => {
        show(prompt, oauth.waitMs);
        if (options.open) openBrowser(prompt.url.href);
        return "accept";
      },
    });
  } catch (error) {
    throw new CliError(inert(error instanceof Error ? error.message : String(error)), Exit.Error);
  } finally {
    oauth.close();
  }
  const row = oauth.store.list().find((summary) => summary.server === name && summary.identity === LOCAL_IDENTITY);
  process.stderr.write(`mcpx: signed in to ${inert(name)}${row?.scopes ? ` for ${inert(row.scopes)}` : ""}\n`);
  return Exit.Ok;
}

function show(prompt: SignInPrompt, waitMs: number): void {
  const scopes = prompt.scopes ? ` for ${inert(prompt.scopes)}` : "";
  process.stderr.write(`mcpx: sign in to ${inert(prompt.server)}${scopes}: open this URL in a browser (mcpx waits up to ${duration(waitMs)}):\n`);
  process.stdout.write(`${inert(prompt.url.href)}\n`);
}

/** `$BROWSER`, else xdg-open: only when asked (`--open`); a failure to open leaves the printed URL. */
function openBrowser(url: string): void {
  const command = process.env.BROWSER || (process.platform === "darwin" ? "open" : "xdg-open");
  const child = spawn(command, [url], { detached: true, stdio: "ignore" });
  child.once("error", (error) => process.stderr.write(`mcpx: could not open a browser with ${inert(command)} (${inert(error.message)}); open the URL above\n`));
  child.unref();
}

/** `mcpx auth logout SERVER`: revoke at the authorization server where it offers revocation, then forget. */
export async function authLogout(name: string): Promise<number> {
  const oauth = processOAuth(stateDir(), [], 0);
  const key = { server: name, identity: LOCAL_IDENTITY };
  const stored = oauth.store.read(key);
  if (!stored) {
    process.stderr.write(`mcpx: not signed in to ${inert(name)}; nothing to do\n`);
    return Exit.Ok;
  }
  const revocation = await revokeTokens(stored);
  oauth.store.remove(key);
  switch (revocation.outcome) {
    case "revoked":
      process.stderr.write(
        revocation.accessTokenLives
          ? `mcpx: signed out of ${inert(name)}: the authorization server revoked its tokens (the last access token, which it cannot revoke, lapses when it expires) and mcpx deleted them\n`
          : `mcpx: signed out of ${inert(name)}: the authorization server revoked its tokens and mcpx deleted them\n`,
      );
      return Exit.Ok;
    case "nothing-to-revoke":
      process.stderr.write(`mcpx: signed out of ${inert(name)}: mcpx deleted its registration (no token was held)\n`);
      return Exit.Ok;
    case "not-offered":
      process.stderr.write(
        `mcpx: signed out of ${inert(name)}: mcpx deleted its tokens; the authorization server offers no revocation, so they stay valid there until they expire\n`,
      );
      return Exit.Ok;
    case "failed":
      process.stderr.write(
        `mcpx: deleted the tokens of ${inert(name)}, but revoking them failed: ${inert(revocation.why)}; they stay valid there until they expire\n`,
      );
      return Exit.Error;
  }
}

function serverNamed(config: Config, name: string): ServerConfig {
  const server = config.servers.find((candidate) => candidate.name === name);
  if (!server) throw new CliError(`no server named ${inert(name)} in ${inert(config.file)}`, Exit.Usage);
  return server;
}
