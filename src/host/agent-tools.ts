/**
 * mcpx's own tools, offered to hosts that cannot take questions inline (no elicitation), so
 * the agent driving such a host can see and answer the questions of its own calls that are
 * meant for an agent.
 * Person-only questions are listed (so the agent can tell its user) but never answerable here.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { invalidParams } from "../protocol/errors.js";
import { BrokerError } from "../broker/errors.js";
import type { QuestionRecord } from "../broker/types.js";
import { elicitationModes } from "../render/host.js";
import type { Gateway } from "./gateway.js";
import type { HostSession } from "./session.js";
import { otherSurfaces } from "./where-it-waits.js";

export const LIST_TOOL = "mcpx__pending_questions";
export const ANSWER_TOOL = "mcpx__answer_question";

/** The tools; their words name only the answering surfaces this process has (`servesPage`). */
export function agentTools(servesPage: boolean): JsonObject[] {
  return [listTool(servesPage), ANSWER_TOOL_DEFINITION];
}

function listTool(servesPage: boolean): JsonObject {
  return {
    name: LIST_TOOL,
    description:
      "List the questions that MCP servers behind mcpx are waiting on (a tool call of yours may be paused on one). " +
      `Questions you may answer have answerableByYou=true; the others are for a person, who answers with ${otherSurfaces(servesPage)}.`,
    inputSchema: { type: "object", properties: {} },
  };
}

const ANSWER_TOOL_DEFINITION: JsonObject = {
  name: ANSWER_TOOL,
  description:
    "Answer a pending question from mcpx__pending_questions. action is accept (with content matching the question's requestedSchema), decline, or cancel.",
  inputSchema: {
    type: "object",
    properties: {
      id: { type: "string", description: "the question's id" },
      action: { type: "string", enum: ["accept", "decline", "cancel"] },
      content: { type: "object", description: "for accept: the answer, shaped by the question's requestedSchema" },
    },
    required: ["id", "action"],
  },
};

/** Offer the tools when there is a broker and the host cannot be asked form questions itself. */
export function offersAgentTools(gateway: Gateway, session: HostSession): boolean {
  const profile = session.profile();
  return gateway.broker !== undefined && profile !== undefined && !elicitationModes(profile).has("form");
}

export function isAgentTool(name: string): boolean {
  return name === LIST_TOOL || name === ANSWER_TOOL;
}

export async function callAgentTool(gateway: Gateway, session: HostSession, name: string, args: JsonObject): Promise<JsonObject> {
  const broker = gateway.broker;
  if (!broker || !offersAgentTools(gateway, session)) throw invalidParams(`unknown tool "${name}"`);
  if (name === LIST_TOOL) {
    const visible = (await broker.list()).filter((record) => visibleTo(record, session, broker.instance));
    const questions = (await Promise.all(visible.map((record) => broker.view(record)))).map((view) => {
      return view.audience === "agent"
        ? { ...view, answerableByYou: true }
        : { id: view.id, server: view.server, message: view.message, audienceReason: view.audienceReason, answerableByYou: false };
    });
    return text(JSON.stringify(questions, null, 2));
  }
  const { id, action, content } = args;
  if (typeof id !== "string" || (action !== "accept" && action !== "decline" && action !== "cancel")) {
    return text('give "id" and an "action" of accept, decline or cancel', true);
  }
  const target = await broker.get(id);
  if (!target || !visibleTo(target, session, broker.instance)) return text(`no question with id ${id} is waiting for this host`, true);
  try {
    const record = await broker.answer(id, { action, ...(isObject(content) ? { content } : {}) }, { by: `agent:${session.id}`, asAgent: true });
    return text(JSON.stringify(await broker.view(record), null, 2));
  } catch (error) {
    if (error instanceof BrokerError) return text(error.message, true);
    throw error;
  }
}

/**
 * A host's agent sees only the questions proven to be its host's (design rule 5): never
 * another host's, never a `mcpx call`'s, and never one no single host can be proven to own,
 * which is for people. Session ids are unique only within one process, so its own questions
 * are also this process's (`instance`: the broker that opened them).
 */
function visibleTo(record: QuestionRecord, session: HostSession, instance: string): boolean {
  return record.hostSession === session.id && record.ownerInstance === instance;
}

function text(value: string, isError = false): JsonObject {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) };
}
