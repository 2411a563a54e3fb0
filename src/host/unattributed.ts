/**
 * A question no single host can be proven to own waits for people (design rule 5). Each host
 * whose call may be waiting on it is told where it is, with a log message on that call's
 * stream: the one way every revision lets a server say something mid-call without asking.
 */
import type { QuestionRecord } from "../broker/types.js";
import type { Upstream } from "../upstream/upstream.js";
import type { CallerContext } from "./session.js";

export function tellWhereItWaits(record: QuestionRecord, upstream: Upstream, calls: CallerContext[]): void {
  const shared = upstream.config.sharing === "shared";
  const data = {
    message:
      `"${record.server}" asked a question while calls from more than one host were in flight, so mcpx cannot tell whose it is. ` +
      `It waits for a person: \`mcpx elicit show ${record.id}\` or mcpx's web page.` +
      (shared ? ` Give "${record.server}" "sharing": "per-host" in the mcpx config so its questions reach the host that asked.` : ""),
    question: record.id,
    server: record.server,
    expiresAt: record.expiresAt,
  };
  for (const call of calls) {
    if (!call.session || call.requestId === undefined || !call.session.wantsLog("warning")) continue;
    call.session.notify("notifications/message", { level: "warning", logger: "mcpx", data }, { relatedRequestId: call.requestId });
  }
}
