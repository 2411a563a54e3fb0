/**
 * Which `approvals` rule holds a call, if any: the first whose server, tool, annotations and
 * arguments all match. Annotations are read as the spec defines them for a tool that leaves a
 * hint out (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true),
 * and destructiveHint and idempotentHint only mean something for a tool that is not read-only.
 * Pure.
 */
import { globMatches } from "../../config/tool-filter.js";
import type { ApprovalRule } from "../../config/types.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";

export interface ApprovalCall {
  server: string;
  /** The upstream's own name of the tool. */
  tool: string;
  /** As the server listed them (absent: the tool said nothing, or is not listed now). */
  annotations: unknown;
  arguments: JsonObject;
}

export function approvalFor(rules: readonly ApprovalRule[], call: ApprovalCall): ApprovalRule | undefined {
  return rules.find((rule) => matchesCall(rule.match, call));
}

function matchesCall(match: ApprovalRule["match"], call: ApprovalCall): boolean {
  if (match.server !== undefined && !globMatches(match.server, call.server)) return false;
  if (match.tool !== undefined && !globMatches(match.tool, call.tool)) return false;
  if (match.annotations !== undefined) {
    const hints = effectiveHints(call.annotations);
    if (!Object.entries(match.annotations).every(([hint, wanted]) => hints[hint] === wanted)) return false;
  }
  if (match.arguments !== undefined) {
    return Object.entries(match.arguments).every(([name, wanted]) => argumentMatches(wanted, call.arguments[name]));
  }
  return true;
}

/** The hints as the spec reads them: defaults for those left out, and no destructive or idempotent claim for a read-only tool. */
export function effectiveHints(annotations: unknown): Record<string, boolean> {
  const given = isObject(annotations) ? annotations : {};
  const hint = (name: string, fallback: boolean): boolean => (typeof given[name] === "boolean" ? (given[name] as boolean) : fallback);
  const readOnly = hint("readOnlyHint", false);
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && hint("destructiveHint", true),
    idempotentHint: !readOnly && hint("idempotentHint", false),
    openWorldHint: hint("openWorldHint", true),
  };
}

function argumentMatches(wanted: unknown, given: unknown): boolean {
  if (typeof wanted === "string") return typeof given === "string" && globMatches(wanted, given);
  return JSON.stringify(wanted) === JSON.stringify(given);
}
