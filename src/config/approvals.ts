/**
 * `approvals`: calls a person must allow before they run. Each rule matches on the server and
 * the tool (the upstream's own name; globs), the tool's annotations as the spec reads them
 * (absent hints take the spec's defaults: a tool that says nothing may be destructive), and
 * the call's arguments (a string is a glob for a string argument, anything else is compared
 * as JSON). The first rule that matches holds the call for a person's consent.
 */
import type { Checker } from "./check.js";
import { isObject } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { ApprovalRule, ServerConfig } from "./types.js";
import { didYouMean, nearest } from "../util/nearest.js";

const RULE_KEYS = ["match", "ttlSeconds", "allowForSession", "reason"];
const MATCH_KEYS = ["server", "tool", "annotations", "arguments"];
export const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export function readApprovals(check: Checker, value: unknown, at: KeyPath, servers: readonly ServerConfig[]): ApprovalRule[] {
  if (!Array.isArray(value)) return check.fail(at, "must be an array of rules, each with a match") ?? [];
  const rules: ApprovalRule[] = [];
  value.forEach((entry, index) => {
    const rule = readRule(check, entry, [...at, String(index)], servers);
    if (rule) rules.push({ ...rule, index });
  });
  return rules;
}

function readRule(check: Checker, entry: unknown, at: KeyPath, servers: readonly ServerConfig[]): Omit<ApprovalRule, "index"> | undefined {
  const fields = check.fields(entry, at, RULE_KEYS);
  if (!fields) return undefined;
  const match = fields.read("match", (v, where) => readMatch(check, v, where, servers));
  if (!fields.has("match")) return check.fail([...at, "match"], `is required: name at least one of ${MATCH_KEYS.join(", ")}`);
  const ttlSeconds = fields.number("ttlSeconds", { above: 0 });
  const allowForSession = fields.boolean("allowForSession") ?? false;
  const reason = fields.string("reason");
  if (!match) return undefined;
  return { match, allowForSession, ...(ttlSeconds !== undefined ? { ttlSeconds } : {}), ...(reason !== undefined ? { reason } : {}) };
}

function readMatch(check: Checker, value: unknown, at: KeyPath, servers: readonly ServerConfig[]): ApprovalRule["match"] | undefined {
  const fields = check.fields(value, at, MATCH_KEYS);
  if (!fields) return undefined;
  if (!MATCH_KEYS.some((key) => fields.has(key))) return check.fail(at, `must name at least one of ${MATCH_KEYS.join(", ")}`);
  const server = fields.string("server");
  const names = servers.map((entry) => entry.name);
  if (server !== undefined && !/[*?[{]/.test(server) && !names.includes(server)) {
    check.fail([...at, "server"], `names server "${server}", which is not in mcpServers${didYouMean(nearest(server, names))}`);
  }
  const tool = fields.string("tool");
  const annotations = fields.read("annotations", (v, where) => {
    if (!isObject(v)) return check.fail(where, `must be an object of hints (${HINTS.join(", ")}) to true or false`);
    for (const [hint, wanted] of Object.entries(v)) {
      if (!(HINTS as readonly string[]).includes(hint)) check.fail([...where, hint], `is not a tool annotation hint (use ${HINTS.join(", ")})`);
      else if (typeof wanted !== "boolean") check.fail([...where, hint], "must be true or false");
    }
    return v as Record<string, boolean>;
  });
  const args = fields.read("arguments", (v, where) =>
    isObject(v) ? v : check.fail(where, "must be an object: argument name to the value (a string is a glob)"),
  );
  return {
    ...(server !== undefined ? { server } : {}),
    ...(tool !== undefined ? { tool } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(args !== undefined ? { arguments: args } : {}),
  };
}
