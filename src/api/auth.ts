/**
 * Who is calling the API: a script with `Authorization: Bearer <token>` (recorded as `rest`),
 * or the web page with the in-tab credential it traded its one-time code for (recorded as
 * `web`). No cookie is read: a browser sends cookies for 127.0.0.1 to every port, so another
 * local server could collect one.
 *
 * The script's token is the host credential when one is configured (then the API token is not
 * accepted: it would be a second key to an instance whose operator chose one), else the API
 * token from the state dir.
 */
import type { IncomingMessage } from "node:http";
import { bearerOf, secretsEqual, type HostCredential } from "../host/host-credential.js";
import type { PageSessions } from "./page-sessions.js";

export type Caller = "rest" | "web";

export interface ApiAuth {
  apiToken: string;
  hostCredential?: HostCredential;
  sessions: PageSessions;
}

/** The authenticated caller, or undefined when the request carries no accepted credential. */
export function callerOf(request: IncomingMessage, auth: ApiAuth): Caller | undefined {
  const given = bearerOf(request);
  if (given === undefined) return undefined;
  if (auth.sessions.valid(given)) return "web";
  const script = auth.hostCredential ? auth.hostCredential.matches(given) : secretsEqual(auth.apiToken, given);
  return script ? "rest" : undefined;
}

/** What to tell someone without the token: which one, and where it is kept. */
export function tokenHint(auth: ApiAuth, tokenFile: string): string {
  if (auth.hostCredential) return `send the host credential (from ${auth.hostCredential.from}) as "Authorization: Bearer <token>"`;
  return `send the API token as "Authorization: Bearer <token>"; it is in ${tokenFile}`;
}
