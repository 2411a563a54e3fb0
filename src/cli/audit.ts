/**
 * `mcpx audit`: the audit trail of this state directory, oldest first: each tool call (whose,
 * which tool, the arguments with secrets redacted, how it ended) and each question (which
 * server asked, who answered, the decision; never an answer's content). `--json` prints JSON
 * Lines, one entry a line: the export.
 */
import { auditFilter } from "../broker/audit-filter.js";
import type { AuditEntry } from "../broker/audit-store.js";
import { openCommandStore } from "./open-store.js";
import type { Config } from "../config/types.js";
import { CliError, Exit } from "./exit.js";
import { inert, inertJson } from "./inert.js";

export interface AuditOptions {
  since?: string;
  server?: string;
  tool?: string;
  session?: string;
  profile?: string;
  json?: boolean;
}

export async function audit(options: AuditOptions, config?: Pick<Config, "store">): Promise<number> {
  const filter = auditFilter(options, Date.now());
  if ("problem" in filter) throw new CliError(filter.problem, Exit.Usage);
  const store = await openCommandStore(config);
  try {
    for (const entry of await store.audit.list(filter)) process.stdout.write(`${options.json ? inertJson(JSON.stringify(entry)) : inert(line(entry))}\n`);
  } finally {
    await store.close();
  }
  return Exit.Ok;
}

function line(entry: AuditEntry): string {
  const who = [
    entry.identity === "local" ? "" : entry.identity,
    entry.hostSession ? `session ${entry.hostSession}` : "",
    entry.profile ? `profile ${entry.profile}` : "",
    entry.client ? `(${entry.client})` : "",
    entry.callId ? `call ${entry.callId}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const what = entry.tool ? `${entry.server}.${entry.tool}` : entry.server;
  if (entry.kind === "call") {
    return `${entry.at}  call      ${what} ${JSON.stringify(entry.arguments ?? {})}  ${entry.outcome} in ${entry.durationMs ?? "?"} ms${who ? `  by ${who}` : ""}${entry.detail ? `: ${entry.detail}` : ""}`;
  }
  return `${entry.at}  question  ${what} ${entry.method ?? ""} ${entry.questionId ?? ""}  ${entry.outcome}${entry.answeredBy ? ` by ${entry.answeredBy}${entry.answeredFrom ? ` from ${entry.answeredFrom}` : ""}` : ""}${who ? `  for ${who}` : ""}`;
}
