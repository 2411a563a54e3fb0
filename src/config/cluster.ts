/**
 * `"cluster"`: this `mcpx serve --http` is one of several instances sharing one store
 * (`"store": {"url": "redis://…"}`). `secret` proves a request handed on between instances came
 * from one of them (cluster/hop.ts); `advertise` is where the others reach this one (its
 * registered address: needed when it listens on every interface, since 0.0.0.0 is nobody's
 * address); `publicUrl` is the address hosts and people use, the balancer's, which the page's
 * links name.
 */
import type { Checker } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { Config } from "./types.js";

/** As long as two random UUIDs' hex: a secret anyone can guess would let them pose as an instance. */
const MIN_SECRET_LENGTH = 32;

export function readCluster(check: Checker, value: unknown, at: KeyPath): Config["cluster"] {
  const fields = check.fields(value, at, ["secret", "advertise", "publicUrl"]);
  if (!fields) return undefined;
  const secret = fields.string("secret");
  if (secret === undefined)
    return check.fail(fields.path("secret"), 'is required: a secret of at least 32 characters every instance shares (e.g. "${MCPX_CLUSTER_SECRET}")');
  if (secret.length < MIN_SECRET_LENGTH) return check.fail(fields.path("secret"), `must be at least ${MIN_SECRET_LENGTH} characters (got ${secret.length})`);
  const advertise = fields.read("advertise", (v, where) => httpUrl(check, v, where));
  const publicUrl = fields.read("publicUrl", (v, where) => httpUrl(check, v, where));
  return { secret, ...(advertise ? { advertise } : {}), ...(publicUrl ? { publicUrl } : {}) };
}

function httpUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  if (typeof value !== "string" || !URL.canParse(value)) return check.fail(at, "must be an http(s) URL");
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") return check.fail(at, "must be an http(s) URL");
  if (url.pathname !== "/" || url.search || url.hash || url.username)
    return check.fail(at, "must be an origin only (scheme, host and port), e.g. http://10.0.0.5:7777");
  return url.origin;
}
