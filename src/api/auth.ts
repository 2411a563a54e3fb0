/**
 * Who is calling the API: a script with `Authorization: Bearer <token>` (recorded as `rest`),
 * or the web page with the `mcpx_token` cookie it got from the printed URL (recorded as `web`).
 */
import type { IncomingMessage } from "node:http";
import { tokenMatches } from "../broker/token.js";
import { cookie } from "./http.js";

export const TOKEN_COOKIE = "mcpx_token";

export type Caller = "rest" | "web";

/** The authenticated caller, or undefined when neither the header nor the cookie holds the token. */
export function callerOf(request: IncomingMessage, token: string): Caller | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match && tokenMatches(token, match[1])) return "rest";
  }
  if (tokenMatches(token, cookie(request, TOKEN_COOKIE))) return "web";
  return undefined;
}

/** What to tell someone without the token: where it is kept. */
export function tokenHint(tokenFile: string): string {
  return `send the API token as "Authorization: Bearer <token>"; it is in ${tokenFile} (mcpx also prints a URL with it when it starts)`;
}
