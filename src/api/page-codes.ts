/**
 * One-time codes for the page's link, `http://host:port/#code=<code>`. The code rides in the
 * URL fragment, which a browser never sends to any server; the page's script trades it once
 * (POST /v1/page-session) for a credential it keeps in this tab only.
 *
 * A code is `<issuedAt>.<nonce>.<mac>`, the MAC an HMAC-SHA256 under the API token (the
 * user's, in the state dir) over the port it is for, the time and the nonce. So any mcpx
 * process of the user can mint one for a running instance (`mcpx link`) without talking to
 * it, and the instance checks it without a list of codes minted. It is good for one port, for
 * CODE_TTL_MS, once, and never for an instance started after it was minted. "Once" holds
 * across instances: the codes redeemed are kept in the store until they expire, so a quick
 * restart (inside the clock allowance) does not revive a used code.
 */
import { createHmac, randomBytes } from "node:crypto";
import { secretsEqual } from "../host/host-credential.js";

export const CODE_TTL_MS = 10 * 60_000;
/** How far a minting clock may run ahead of the instance's (same machine: barely). */
const SKEW_MS = 5_000;

export function mintPageCode(apiToken: string, port: number, now: number = Date.now()): string {
  const issuedAt = String(now);
  const nonce = randomBytes(16).toString("base64url");
  return `${issuedAt}.${nonce}.${mac(apiToken, port, issuedAt, nonce)}`;
}

/** The page's address with a fresh code, for the page served at `base`. */
export function pageLink(apiToken: string, base: URL): URL {
  const port = Number(base.port || (base.protocol === "https:" ? 443 : 80));
  return new URL(`/#code=${mintPageCode(apiToken, port)}`, base);
}

function mac(apiToken: string, port: number, issuedAt: string, nonce: string): string {
  return createHmac("sha256", apiToken).update(`mcpx page code v1\n${port}\n${issuedAt}\n${nonce}`).digest("base64url");
}

/** Where the codes already used are kept: the store (`UsedPageCodes`), shared by every instance on the state dir. */
export interface UsedCodes {
  /** True the first time `nonce` is claimed, until `expiresMs`. */
  claim(nonce: string, expiresMs: number, now: number): boolean;
}

export class PageCodes {
  readonly #startedAt: number;

  constructor(
    private readonly apiToken: string,
    private readonly used: UsedCodes,
    now: number = Date.now(),
  ) {
    this.#startedAt = now;
  }

  /** True once for a good code for `port`; false for a wrong, stale, foreign or used one. */
  redeem(code: unknown, port: number, now: number = Date.now()): boolean {
    if (typeof code !== "string" || code.length > 200) return false;
    const [issuedAt = "", nonce = "", given = "", ...rest] = code.split(".");
    if (rest.length || !/^\d{1,15}$/.test(issuedAt) || nonce === "") return false;
    if (!secretsEqual(mac(this.apiToken, port, issuedAt, nonce), given)) return false;
    const issued = Number(issuedAt);
    if (issued < this.#startedAt - SKEW_MS || issued > now + SKEW_MS || now - issued > CODE_TTL_MS) return false;
    return this.used.claim(nonce, issued + CODE_TTL_MS, now);
  }
}
