/**
 * `elicitation/create`, rendered for one host: whether it may be sent at all (revision,
 * declared modes, schema), then the params that host's revision accepts.
 */

import type { JsonObject } from "../protocol/jsonrpc.js";
import { defines } from "../protocol/revisions.js";
import { renderFormSchema } from "./form-schema.js";
import { elicitationModes, type HostProfile } from "./host.js";
import { withServerName } from "./name-server.js";
import { modeOf, type Question } from "./question.js";
import { refused, sendable, type RenderResult } from "./result.js";

/** Why this host may not be asked in this mode, or `undefined` if it may. */
function modeRefusal(question: Question, host: HostProfile): string | undefined {
  const { revision } = host;
  if (!defines(revision, "elicitation")) return `revision ${revision} has no elicitation`;
  const modes = elicitationModes(host);
  if (modes.size === 0) return 'the host did not declare the "elicitation" capability';
  const mode = modeOf(question);
  if (mode === "url" && !defines(revision, "elicitationUrl")) return `revision ${revision} has no URL-mode elicitation`;
  if (mode === "url" && !modes.has("url")) return 'the host did not declare URL-mode elicitation ("elicitation.url")';
  if (mode === "form" && !modes.has("form")) return 'the host declared only URL-mode elicitation, not form ("elicitation.form")';
  return undefined;
}

/** Render an elicitation question; see `renderForHost`. */
export function renderElicitation(question: Question, host: HostProfile, nameServer: boolean): RenderResult {
  const refusal = modeRefusal(question, host);
  if (refusal !== undefined) return refused(refusal);
  const { revision } = host;
  const params: JsonObject = structuredClone(question.params);

  // `task` asks the receiver of the upstream's request (mcpx) to run it as a task. The broker
  // holds the question either way; the host is asked plainly and never sees a task it did
  // not start, so its answer is always an ElicitResult.
  delete params.task;
  // The `mode` field came with URL mode.
  if (!defines(revision, "elicitationUrl")) delete params.mode;

  if (modeOf(question) === "url") {
    if (defines(revision, "elicitationId")) {
      // Required on URL requests in 2025-11-25; mint a stable one if the upstream left it out.
      if (typeof params.elicitationId !== "string" || params.elicitationId === "") {
        params.elicitationId = `mcpx-${question.id}`;
      }
    }
  } else {
    const schema = renderFormSchema(params.requestedSchema, revision);
    if (!schema.ok) return refused(schema.reason);
    params.requestedSchema = schema.schema;
  }
  // 2025-06-18 never had it; 2026-07-28 removed it (servers correlate through requestState).
  // Carrying the 2026 question inside an `input_required` result is the host layer's job.
  if (!defines(revision, "elicitationId")) delete params.elicitationId;

  if (nameServer) {
    if (typeof params.message !== "string") return refused('the upstream sent no "message" string to show');
    params.message = withServerName(params.message, question.server);
  }
  return sendable(question.method, params);
}
