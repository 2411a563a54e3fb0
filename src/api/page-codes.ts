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
 *
 * Several instances behind a balancer (`cluster.publicUrl`): the port a code is for is the
 * public URL's, the one people open, and any instance takes it, one started after it was minted
 * too (an instance that joins or restarts must not refuse the codes of the others); "once"
 * rests on the store's record of used codes alone, which they share.
 *
 * Such a code signs the tab in as the operator (identity "local"). A signed-in identity asks
 * the instance for a link of its own (`POST /v1/page-link`): its code carries the identity as a
 * fourth part, `<issuedAt>.<nonce>.<mac>.<identity, base64url>`, the MAC over it too, so the
 * tab sees that identity's questions only.
 */
import { createHmac, randomBytes } from "node:crypto";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { secretsEqual } from "../host/host-credential.js";

export const CODE_TTL_MS = 10 * 60_000;
/** How far a minting clock may run ahead of the instance's (same machine: barely). */
const SKEW_MS = 5_000;

/** Long enough for an issuer's URL and a subject, base64url. */
const MAX_CODE_LENGTH = 2048;

export function mintPageCode(apiToken: string, port: number, now: number = Date.now(), identity: string = LOCAL_IDENTITY): string {
  const issuedAt = String(now);
  const nonce = randomBytes(16).toString("base64url");
  const code = `${issuedAt}.${nonce}.${mac(apiToken, port, issuedAt, nonce, identity)}`;
  return identity === LOCAL_IDENTITY ? code : `${code}.${Buffer.from(identity, "utf8").toString("base64url")}`;
}

/** The page's address with a fresh code, for the page served at `base`. */
export function pageLink(apiToken: string, base: URL): URL {
  return new URL(`/#code=${mintPageCode(apiToken, portOf(base))}`, base);
}

/** The port a URL names, or its scheme's. */
export function portOf(url: URL): number {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

/** The operator's codes are as they always were; an identity's MAC covers the identity too. */
function mac(apiToken: string, port: number, issuedAt: string, nonce: string, identity: string): string {
  const signed = `mcpx page code v1\n${port}\n${issuedAt}\n${nonce}${identity === LOCAL_IDENTITY ? "" : `\n${identity}`}`;
  return createHmac("sha256", apiToken).update(signed).digest("base64url");
}

/** Where the codes already used are kept: the store (`BrokerStore.usedPageCodes`), shared by every instance on the state dir. */
export interface UsedCodes {
  /** True the first time `nonce` is claimed, until `expiresMs`. */
  claim(nonce: string, expiresMs: number, now: number): Promise<boolean>;
}

export class PageCodes {
  /** Codes minted before this are refused; -Infinity in a cluster, where another instance may have minted them for all. */
  readonly #startedAt: number;

  constructor(
    private readonly apiToken: string,
    private readonly used: UsedCodes,
    now: number = Date.now(),
    options: { cluster?: boolean } = {},
  ) {
    this.#startedAt = options.cluster ? Number.NEGATIVE_INFINITY : now;
  }

  /** True once for a good code for `port`; false for a wrong, stale, foreign or used one. */
  async redeem(code: unknown, port: number, now: number = Date.now()): Promise<boolean> {
    return (await this.redeemFor(code, port, now)) !== undefined;
  }

  /** The identity a good code for `port` signs in, once; undefined for a wrong, stale, foreign or used one. */
  async redeemFor(code: unknown, port: number, now: number = Date.now()): Promise<string | undefined> {
    if (typeof code !== "string" || code.length > MAX_CODE_LENGTH) return undefined;
    const [issuedAt = "", nonce = "", given = "", encoded, ...rest] = code.split(".");
    if (rest.length || !/^\d{1,15}$/.test(issuedAt) || nonce === "" || encoded === "") return undefined;
    const identity = encoded === undefined ? LOCAL_IDENTITY : Buffer.from(encoded, "base64url").toString("utf8");
    if (!secretsEqual(mac(this.apiToken, port, issuedAt, nonce, identity), given)) return undefined;
    const issued = Number(issuedAt);
    if (issued < this.#startedAt - SKEW_MS || issued > now + SKEW_MS || now - issued > CODE_TTL_MS) return undefined;
    return (await this.used.claim(nonce, issued + CODE_TTL_MS, now)) ? identity : undefined;
  }
}
