/**
 * Who is calling the API: a script with `Authorization: Bearer <token>` (recorded as `rest`),
 * or the web page with the in-tab credential it traded its one-time code for (recorded as
 * `web`). No cookie is read: a browser sends cookies for 127.0.0.1 to every port, so another
 * local server could collect one.
 *
 * The script's token is the host credential when one is configured (then the API token is not
 * accepted: it would be a second key to an instance whose operator chose one), else the API
 * token the store shares (the state dir's file, or a Redis key every instance reads); both act as the operator, identity "local", and so does the page
 * signed in with a link minted from the state dir (a signed-in identity's own link, from
 * `POST /v1/page-link`, signs the tab in as that identity). With an issuer (`http.auth.issuer`), a host's access
 * token is accepted too, as that host's identity, which then sees only its own questions.
 */
import type { IncomingMessage } from "node:http";
import { bearerOf, secretsEqual, type HostCredential } from "../host/host-credential.js";
import { authenticate, type Refused } from "../host/identity-auth.js";
import type { IdentityIssuer } from "../host/identity-issuer.js";
import type { PageSessions } from "./page-sessions.js";

export interface Caller {
  by: "rest" | "web";
  /** Whose questions it may see and settle (broker/identity.ts). */
  identity: string;
}

export interface ApiAuth {
  apiToken: string;
  hostCredential?: HostCredential;
  issuer?: IdentityIssuer;
  sessions: PageSessions;
}

/** The authenticated caller, or why the request is refused. */
export async function callerOf(request: IncomingMessage, auth: ApiAuth, tokenWhere: string): Promise<Caller | Refused> {
  const tab = await auth.sessions.identityOf(bearerOf(request));
  if (tab !== undefined) return { by: "web", identity: tab };
  const operator = { matches: (token: string) => secretsEqual(auth.apiToken, token), hint: tokenHint(auth, tokenWhere) };
  const result = await authenticate(
    request,
    { ...(auth.hostCredential ? { credential: auth.hostCredential } : {}), ...(auth.issuer ? { issuer: auth.issuer } : {}) },
    operator,
  );
  return "identity" in result ? { by: "rest", identity: result.identity } : result;
}

/** What to tell someone without the token: which one, and where it is kept (the store's `secrets.whereIs("api-token")`). */
export function tokenHint(auth: Pick<ApiAuth, "hostCredential">, tokenWhere: string): string {
  if (auth.hostCredential) return `send the host credential (from ${auth.hostCredential.from}) as "Authorization: Bearer <token>"`;
  return `send the API token as "Authorization: Bearer <token>"; it is in ${tokenWhere}`;
}
