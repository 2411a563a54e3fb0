/**
 * Approval gates (`approvals` in the config): a tool call a rule matches is held, and a
 * person-only consent question goes out first, by the routes of any question (inline to the
 * calling host in its era's way, the page, the CLI). Accept runs the call; decline, cancel or
 * expiry refuse it with an `isError` result saying so (fail closed). No policy rule, script or
 * agent tool can answer it (the question is `personOnly`). A rule may let the person allow the
 * tool for the rest of the host's session.
 */
import { randomUUID } from "node:crypto";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { ApprovalRule } from "../../config/types.js";
import type { Question } from "../../render/question.js";
import type { CallOptions } from "../../upstream/calls.js";
import type { Upstream } from "../../upstream/upstream.js";
import { attribute } from "../attribution.js";
import { askAndWait, type QuestionRelay } from "../questions.js";
import type { CallerContext, HostSession } from "../session.js";
import { approvalFor } from "./match.js";

/** The form field a rule with `allowForSession` adds. */
export const FOR_SESSION = "allowForSession";

/** What each host session was let call without asking again: rule index, server, tool. */
export class SessionAllowances {
  readonly #allowed = new WeakMap<HostSession, Set<string>>();

  allows(session: HostSession | undefined, key: string): boolean {
    return session !== undefined && (this.#allowed.get(session)?.has(key) ?? false);
  }

  allow(session: HostSession, key: string): void {
    let keys = this.#allowed.get(session);
    if (!keys) this.#allowed.set(session, (keys = new Set()));
    keys.add(key);
  }
}

export interface ApprovalRelay extends QuestionRelay {
  readonly allowances: SessionAllowances;
}

export async function approveCall(gateway: ApprovalRelay, upstream: Upstream, params: JsonObject, options: CallOptions): Promise<JsonObject | undefined> {
  const tool = typeof params.name === "string" ? params.name : "";
  const args = isObject(params.arguments) ? params.arguments : {};
  const listed = upstream.catalog.tools.find((entry) => entry.name === tool);
  const rule = approvalFor(gateway.config.approvals, { server: upstream.name, tool, annotations: listed?.annotations, arguments: args });
  if (!rule) return undefined;
  const caller = options.owner as CallerContext | undefined;
  const session = caller?.session ?? caller?.run?.session;
  const key = `${rule.index}\u0000${upstream.name}\u0000${tool}`;
  if (gateway.allowances.allows(session, key)) return undefined;

  const question = approvalQuestion(upstream.name, tool, args, rule);
  const log = gateway.log.child({ server: upstream.name, tool, approval: rule.index });
  log.info("a call waits for a person's approval");
  const attribution = attribute(caller ? [caller] : [], gateway.connectionOwner(upstream));
  // Refused by the mode ("error"), or the call ended meanwhile: not allowed either way.
  const answer: JsonObject = await askAndWait(gateway, upstream, options.signal ?? new AbortController().signal, question, attribution, rule.ttlSeconds).catch(
    () => ({ action: "cancel" }),
  );
  if (answer.action === "accept") {
    if (rule.allowForSession && session && isObject(answer.content) && answer.content[FOR_SESSION] === true) gateway.allowances.allow(session, key);
    log.info("a person allowed the call");
    return undefined;
  }
  log.info("the call was not allowed", { action: answer.action });
  const how = answer.action === "decline" ? "a person refused it" : "nobody allowed it in time (it was cancelled or its question expired)";
  return {
    content: [{ type: "text", text: `${upstream.name}.${tool} did not run: ${how}. mcpx asks a person before this call (${reasonOf(rule)}).` }],
    isError: true,
  };
}

function approvalQuestion(server: string, tool: string, args: JsonObject, rule: ApprovalRule): Question {
  const properties: JsonObject = rule.allowForSession
    ? { [FOR_SESSION]: { type: "boolean", title: `Allow ${server}.${tool} for the rest of this session`, default: false } }
    : {};
  return {
    id: randomUUID(),
    server,
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    // The arguments in full, as JSON: escaped, so nothing in them reads as more of the message.
    params: { mode: "form", message: `Allow ${server}.${tool} ${JSON.stringify(args)}? (${reasonOf(rule)})`, requestedSchema: { type: "object", properties } },
    personOnly: `a call mcpx holds for a person's approval (${reasonOf(rule)})`,
  };
}

function reasonOf(rule: ApprovalRule): string {
  return rule.reason ?? `approvals rule ${rule.index}`;
}
