/**
 * The host credential: a bearer token that every HTTP client of this mcpx must send, on `/mcp`
 * and on `/v1`, once one is configured. Binding beyond loopback without one is refused.
 *
 * It comes from the config (`http.auth.token`, or `http.auth.tokenFile`, a file only its owner
 * may read), else from `$MCPX_HTTP_TOKEN`. It is compared through SHA-256 digests with
 * `timingSafeEqual`, so neither its bytes nor its length show in how long a refusal takes.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";

export const TOKEN_ENV = "MCPX_HTTP_TOKEN";
/** 32 characters: 128 bits as hex, the least that resists guessing over a network. */
export const MIN_TOKEN_LENGTH = 32;

/** Where a credential may be configured (`http.auth` in the config). */
export interface CredentialSource {
  token?: string;
  /** Absolute. */
  tokenFile?: string;
}

/** A credential that cannot be used, or a bind that needs one: the message says what to do. */
export class CredentialError extends Error {
  override readonly name = "CredentialError";
}

export class HostCredential {
  readonly #digest: Buffer;

  /** @param from where it came from, for messages (never the token itself). */
  constructor(
    secret: string,
    readonly from: string,
  ) {
    this.#digest = digest(secret);
  }

  matches(given: string | undefined): boolean {
    return given !== undefined && timingSafeEqual(this.#digest, digest(given));
  }
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
export function secretsEqual(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerOf(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

/**
 * The configured credential: `source` (the config's `http.auth`) when given, else
 * `$MCPX_HTTP_TOKEN`, else none.
 * @throws CredentialError for a token too short, or a token file that is missing, empty or
 *   readable by anyone but its owner.
 */
export function loadHostCredential(
  source: CredentialSource | undefined,
  env: NodeJS.ProcessEnv = process.env,
  labels = { token: "http.auth.token", tokenFile: "http.auth.tokenFile" },
): HostCredential | undefined {
  if (source?.tokenFile !== undefined) {
    return new HostCredential(checked(readTokenFile(source.tokenFile), `${labels.tokenFile} ${source.tokenFile}`), `${labels.tokenFile} ${source.tokenFile}`);
  }
  if (source?.token !== undefined) return new HostCredential(checked(source.token, labels.token), labels.token);
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return new HostCredential(checked(fromEnv, `$${TOKEN_ENV}`), `$${TOKEN_ENV}`);
  return undefined;
}

function checked(token: string, what: string): string {
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new CredentialError(
      `the host credential from ${what} must be at least ${MIN_TOKEN_LENGTH} characters without spaces (make one with: openssl rand -hex 32)`,
    );
  }
  return token;
}

/** The file's content, trimmed; refused when group or others may read or write it. */
export function readTokenFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new CredentialError(`cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    // The mode of the file actually opened, not of whatever the path names a moment later.
    const mode = fstatSync(fd).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new CredentialError(
        `the token file ${path} is readable by others (mode ${mode.toString(8).padStart(4, "0")}); make it private with: chmod 600 ${path}`,
      );
    }
    return readFileSync(fd, "utf8").trim();
  } finally {
    closeSync(fd);
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped, or in brackets) and `localhost`: nothing else is loopback. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  const version = isIP(name);
  if (version === 4) return name.startsWith("127.");
  if (version !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::ffff:7f00:1 for ::ffff:127.0.0.1).
  const canonical = new URL(`http://[${name}]/`).hostname;
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/**
 * Refuses a bind beyond loopback without a credential, before anything is bound.
 * @param how the ways this command can be given one, for the message.
 */
export function requireCredentialFor(host: string, credential: HostCredential | undefined, how: string): void {
  if (credential || isLoopbackHost(host)) return;
  throw new CredentialError(
    `refusing to serve on ${host}: beyond loopback (127.0.0.1, ::1, localhost) every client must present a host credential, and none is configured. ` +
      `Set one: ${how}. Clients then send "Authorization: Bearer <token>".`,
  );
}
