/**
 * The page's in-tab credentials: what a one-time code is traded for. Random, known only to
 * this process (kept as SHA-256 digests, in memory: a restart signs every page out), good for
 * SESSION_TTL_MS, and accepted only on `/v1` (never on `/mcp`). The page keeps its own in
 * sessionStorage, which the browser scopes to this origin (scheme, host and port) and
 * never sends anywhere by itself, unlike a cookie. Each is the identity its code was for
 * (the operator's, "local", unless a signed-in identity asked for the link).
 */
import { createHash, randomBytes } from "node:crypto";
import { LOCAL_IDENTITY } from "../broker/identity.js";

export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Pages open at once; the oldest is signed out beyond this. */
const MAX_SESSIONS = 64;
/** Pages one identity may have open: beyond it, its own oldest is signed out, never another's. */
const MAX_PER_IDENTITY = 16;

export class PageSessions {
  /** Digest of the credential → when it expires, and whose it is. Looked up by digest: a timing difference says nothing about the credential. */
  readonly #sessions = new Map<string, { expires: number; identity: string }>();

  open(now: number = Date.now(), identity: string = LOCAL_IDENTITY): { token: string; expiresInSeconds: number } {
    for (const [key, { expires }] of this.#sessions) if (expires <= now) this.#sessions.delete(key);
    const own = [...this.#sessions].filter(([, session]) => session.identity === identity).map(([key]) => key);
    while (own.length >= MAX_PER_IDENTITY) this.#sessions.delete(own.shift()!);
    while (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    const token = randomBytes(32).toString("base64url");
    this.#sessions.set(digest(token), { expires: now + SESSION_TTL_MS, identity });
    return { token, expiresInSeconds: SESSION_TTL_MS / 1000 };
  }

  valid(token: string | undefined, now: number = Date.now()): boolean {
    return this.identityOf(token, now) !== undefined;
  }

  /** Whose tab this credential signs in, while it is good. */
  identityOf(token: string | undefined, now: number = Date.now()): string | undefined {
    if (!token) return undefined;
    const session = this.#sessions.get(digest(token));
    return session && session.expires > now ? session.identity : undefined;
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
