/**
 * Whose a question is (issue 16: identities for hosts), as far as it is proven, like its host
 * (design rule 5): the proven host's identity; else the identity whose own connection asked
 * (identity-scope.ts); else the one identity every call in flight belongs to. Otherwise, or
 * with no call in flight, the operator's ("local"): a question mcpx cannot tie to one identity
 * is shown to no identity but the operator, so nobody sees another person's question.
 */
import { LOCAL_IDENTITY } from "../broker/identity.js";
import type { Upstream } from "../upstream/upstream.js";
import { hostOf, type Attribution } from "./attribution.js";
import { IdentityScope } from "./identity-scope.js";

export function questionIdentity(attribution: Attribution, upstream: Upstream): string {
  const host = hostOf(attribution);
  if (host) return host.identity;
  if (upstream.scope instanceof IdentityScope) return upstream.scope.identity;
  const identities = new Set(attribution.calls.map((call) => (call.session ?? call.run?.session)?.identity ?? LOCAL_IDENTITY));
  const [only] = identities;
  return identities.size === 1 && only !== undefined ? only : LOCAL_IDENTITY;
}
