/**
 * The `requestState` mcpx hands a modern host with an `input_required` result. The host must
 * echo it byte for byte, and it is attacker-controlled input, so it is signed (HMAC-SHA256 with
 * a key kept 0600 in the state dir) and names what it belongs to: the call held open in mcpx,
 * the round, the request (method, name or URI, and the arguments' digest), and when it expires
 * (with the question). Whatever fails any of that is refused.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { isObject } from "../../protocol/jsonrpc.js";

export interface StateClaims {
  /** The call mcpx holds open. */
  call: string;
  /** Which retry this state is for: each round's state is good for that round only. */
  round: number;
  /** The request it belongs to. */
  method: string;
  target: string;
  args: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** What a retry says about itself, to compare with the claims. */
export type Binding = Pick<StateClaims, "method" | "target" | "args">;

export class RequestStateSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  sign(claims: StateClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${body}.${this.#mac(body)}`;
  }

  /** The claims, or why the state is refused. */
  verify(state: unknown, binding: Binding): StateClaims | { refused: string } {
    if (typeof state !== "string") return { refused: "requestState must be the string mcpx sent" };
    const [body, mac, extra] = state.split(".");
    if (body === undefined || mac === undefined || extra !== undefined || !this.#macMatches(body, mac)) {
      return { refused: "requestState failed verification (it is not one mcpx issued, or it was changed)" };
    }
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      return { refused: "requestState failed verification" };
    }
    if (!isClaims(claims)) return { refused: "requestState failed verification" };
    if (this.now() >= claims.expiresAt) return { refused: "requestState has expired: the question it carried is gone; call again" };
    if (claims.method !== binding.method || claims.target !== binding.target || claims.args !== binding.args) {
      return { refused: "requestState belongs to another request (a retry must repeat the original request)" };
    }
    return claims;
  }

  #mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }

  #macMatches(body: string, mac: string): boolean {
    const expected = Buffer.from(this.#mac(body));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/**
 * The call a `requestState` names, read without checking it: only to find which instance holds
 * that call, which checks it in full (`verify`). Undefined when it says none.
 */
export function heldCallOf(state: unknown): string | undefined {
  if (typeof state !== "string") return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(state.split(".")[0] ?? "", "base64url").toString("utf8"));
    return isObject(claims) && typeof claims.call === "string" ? claims.call : undefined;
  } catch {
    return undefined;
  }
}

function isClaims(value: unknown): value is StateClaims {
  return (
    isObject(value) &&
    typeof value.call === "string" &&
    typeof value.round === "number" &&
    typeof value.method === "string" &&
    typeof value.target === "string" &&
    typeof value.args === "string" &&
    typeof value.expiresAt === "number"
  );
}

/** A digest of a JSON value that does not depend on key order. */
export function digest(value: unknown): string {
  return createHash("sha256").update(canonical(value)).digest("base64url");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
