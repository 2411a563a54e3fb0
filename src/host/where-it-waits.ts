/**
 * Telling a host that its call waits on a question it is not being asked: one nobody can be
 * proven to own (design rule 5), or one its own call raised that it cannot take (it did not
 * declare the capability, its revision cannot carry it). Either way it is a log message on the
 * call's stream, the one way every revision lets a server say something mid-call without asking,
 * and only when the host takes warnings (a 2026-07-28 host: when its request set a log level).
 */
import type { QuestionRecord } from "../broker/types.js";
import { identityOf, LOCAL_IDENTITY } from "../broker/identity.js";
import type { Upstream } from "../upstream/upstream.js";
import type { CallerContext } from "./session.js";

/**
 * Where else a person can answer: the page and the REST API only when this process serves them
 * (`serve --http`); over stdio there is no page to point at, but `mcpx ui` serves one for the
 * same store. A signed-in identity's question is not the operator's to answer: its person uses
 * the REST API with their token, or the page through a link of their own.
 */
export function otherSurfaces(servesPage: boolean, id?: string, identity: string = LOCAL_IDENTITY): string {
  if (identity !== LOCAL_IDENTITY) return "mcpx's REST API with your access token, or its web page through a link of your own (POST /v1/page-link)";
  const cli = id === undefined ? "`mcpx elicit`" : `\`mcpx elicit show ${id}\``;
  return servesPage ? `${cli}, mcpx's web page or its REST API` : `${cli} in a terminal, or \`mcpx ui\` for a page to answer on`;
}

export function tellWhereItWaits(record: QuestionRecord, upstream: Upstream, calls: CallerContext[], servesPage: boolean): void {
  const shared = upstream.config.sharing === "shared";
  const message =
    `"${record.server}" asked a question while calls from more than one host were in flight, so mcpx cannot tell whose it is. ` +
    `It waits for a person: ${otherSurfaces(servesPage, record.id)}.` +
    (shared ? ` Give "${record.server}" "sharing": "per-host" in the mcpx config so its questions reach the host that asked.` : "");
  for (const call of calls) warn(call, record, message);
}

/** The calling host cannot be asked (`why`): its call waits until someone else answers or the question expires. */
export function tellCallerItWaits(record: QuestionRecord, call: CallerContext, why: string, servesPage: boolean): void {
  const message =
    `"${record.server}" asked a question during this call that this host cannot be asked (${why}). ` +
    `The call waits until it is answered elsewhere (${otherSurfaces(servesPage, record.id, identityOf(record))}) or expires at ${record.expiresAt}.`;
  warn(call, record, message, why);
}

function warn(call: CallerContext, record: QuestionRecord, message: string, reason?: string): void {
  if (!call.session || call.requestId === undefined || !call.session.wantsLog("warning")) return;
  const data = { message, question: record.id, server: record.server, expiresAt: record.expiresAt, ...(reason ? { reason } : {}) };
  call.session.notify("notifications/message", { level: "warning", logger: "mcpx", data }, { relatedRequestId: call.requestId });
}
