/**
 * The page's in-tab credentials: what a one-time code is traded for. Random, kept in the store
 * only as SHA-256 digests, so every instance on the store knows the tab (behind a round-robin
 * balancer its next request lands on another) and a restart does not sign it out; good for
 * SESSION_TTL_MS, and accepted only on `/v1` (never on `/mcp`). The page keeps its own in
 * sessionStorage, which the browser scopes to this origin (scheme, host and port) and
 * never sends anywhere by itself, unlike a cookie. Each is the identity its code was for
 * (the operator's, "local", unless a signed-in identity asked for the link).
 */
import { createHash, randomBytes } from "node:crypto";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import type { PageSessionLimits, PageSessionTable } from "../broker/store-api.js";

export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Pages open at once: the oldest is signed out beyond 64; one identity's own oldest beyond 16, never another's. */
export const PAGE_SESSION_LIMITS: PageSessionLimits = { perIdentity: 16, total: 64 };

export class PageSessions {
  constructor(private readonly table: PageSessionTable) {}

  async open(now: number = Date.now(), identity: string = LOCAL_IDENTITY): Promise<{ token: string; expiresInSeconds: number }> {
    const token = randomBytes(32).toString("base64url");
    await this.table.open(digest(token), identity, now + SESSION_TTL_MS, PAGE_SESSION_LIMITS, now);
    return { token, expiresInSeconds: SESSION_TTL_MS / 1000 };
  }

  async valid(token: string | undefined, now: number = Date.now()): Promise<boolean> {
    return (await this.identityOf(token, now)) !== undefined;
  }

  /** Whose tab this credential signs in, while it is good. Looked up by digest: a timing difference says nothing about the credential. */
  async identityOf(token: string | undefined, now: number = Date.now()): Promise<string | undefined> {
    if (!token) return undefined;
    return this.table.identityOf(digest(token), now);
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
