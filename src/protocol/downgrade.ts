/**
 * Make what a server says valid for a host that speaks an older protocol revision.
 *
 * An upstream may speak a newer revision than the host it is relayed to; everything mcpx sends
 * a host must be valid for the host's revision. These functions remove what the revision lacks
 * and convert what can be said another way (audio and resource links become text, structured
 * content becomes its JSON). Every decision asks `defines(revision, feature)`; the per-kind
 * field table is in `./downgrade/fields.ts`.
 *
 * Pure: no I/O. Each function returns a copy that shares nothing with its input.
 */
import type { JsonObject } from "./jsonrpc.js";
import { defines, type Feature, type Revision } from "./revisions.js";
import { downgradeContentBlock as downgradeBlock } from "./downgrade/content.js";
import { omitLacking, type Kind } from "./downgrade/fields.js";
import { RESULT_REWRITES } from "./downgrade/results.js";
import { lookupTable } from "./lookup.js";
import { withResultFields } from "./downgrade/result-type.js";
import { copyJson } from "./json-copy.js";

/**
 * The result of a client request (`tools/list`, `tools/call`, `resources/*`, `prompts/*`, …)
 * as `revision` can carry it, with the result fields its era requires (`resultType`, from
 * 2026-07-28) and none it lacks. Results of other methods come back as a copy with those fields.
 */
export function downgradeResult(method: string, result: JsonObject, revision: Revision): JsonObject {
  const rewrite = RESULT_REWRITES.get(method);
  const copy = copyJson(result);
  return withResultFields(method, rewrite ? rewrite(copy, revision) : copy, revision);
}

/** One content block (tool result, prompt message) as `revision` can carry it. */
export function downgradeContentBlock(block: JsonObject, revision: Revision): JsonObject {
  return downgradeBlock(structuredClone(block), revision);
}

/** Server notifications a revision has no way to receive at all. */
const NOTIFICATION_FEATURES = lookupTable<Feature>({
  "notifications/elicitation/complete": "elicitationComplete",
  "notifications/tasks/status": "tasks",
});

/**
 * Can a host of `revision` receive this server notification at all? False for notifications its
 * revision does not have (elicitation/complete, tasks/status), and for a cancellation without a
 * `requestId` (optional only since tasks): an older host could not tell what was cancelled.
 * Ask this before `downgradeNotification`; when false, do not send.
 */
export function canCarryNotification(method: string, params: JsonObject | undefined, revision: Revision): boolean {
  const feature = NOTIFICATION_FEATURES.get(method);
  if (feature !== undefined && !defines(revision, feature)) return false;
  if (method === "notifications/cancelled") return params?.requestId !== undefined || defines(revision, "tasks");
  return true;
}

const NOTIFICATION_KINDS = lookupTable<Kind>({
  "notifications/progress": "progressParams",
  "notifications/message": "notificationParams",
  "notifications/resources/updated": "notificationParams",
  "notifications/cancelled": "notificationParams",
});

/**
 * The params of a server notification as `revision` can carry them: e.g. a progress `message`
 * (2025-03-26) or params `_meta` (2025-11-25) removed. List-changed notifications need no change:
 * older revisions accept any params there. Whether the notification may be sent at all is
 * `canCarryNotification`'s question.
 */
export function downgradeNotification(method: string, params: JsonObject = {}, revision: Revision): JsonObject {
  const kind = NOTIFICATION_KINDS.get(method);
  const copy = copyJson(params);
  return kind ? omitLacking(copy, kind, revision) : copy;
}
