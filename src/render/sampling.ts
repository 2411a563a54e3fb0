/**
 * `sampling/createMessage`, rendered for one host. The messages are the model's input, so
 * they are never rewritten: content the host's revision cannot carry makes the request not
 * sendable instead.
 */

import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { lookupTable } from "../protocol/lookup.js";
import { defines, type Feature, type Revision } from "../protocol/revisions.js";
import { samplingRefusal, type HostProfile } from "./host.js";
import type { Question } from "./question.js";
import { refused, sendable, type RenderResult } from "./result.js";

/** Content block types of a sampling message, and the feature that brought each (none: always). */
const CONTENT_TYPES = lookupTable<Feature | undefined>({
  text: undefined,
  image: undefined,
  audio: "audioContent",
  tool_use: "samplingTools",
  tool_result: "samplingTools",
});

function contentRefusal(content: unknown, revision: Revision): string | undefined {
  const type = isObject(content) ? content.type : undefined;
  if (typeof type !== "string" || !CONTENT_TYPES.has(type)) {
    return `a message has content of type ${JSON.stringify(type) ?? "(none)"}, which revision ${revision} does not define`;
  }
  const feature = CONTENT_TYPES.get(type);
  if (feature !== undefined && !defines(revision, feature)) {
    return `a message has "${type}" content, which revision ${revision} cannot carry`;
  }
  return undefined;
}

function messagesRefusal(messages: unknown, revision: Revision): string | undefined {
  if (!Array.isArray(messages)) return 'the upstream sent no "messages" list';
  for (const message of messages) {
    const content = isObject(message) ? message.content : undefined;
    if (Array.isArray(content)) {
      if (!defines(revision, "samplingContentArrays")) {
        return `a message has a list of content blocks, which revision ${revision} cannot carry`;
      }
      for (const block of content) {
        const refusal = contentRefusal(block, revision);
        if (refusal !== undefined) return refusal;
      }
    } else {
      const refusal = contentRefusal(content, revision);
      if (refusal !== undefined) return refusal;
    }
  }
  return undefined;
}

/** Render a sampling question; see `renderForHost`. */
export function renderSampling(question: Question, host: HostProfile): RenderResult {
  const refusal = samplingRefusal(host, question.params) ?? messagesRefusal(question.params.messages, host.revision);
  if (refusal !== undefined) return refused(refusal);
  const params: JsonObject = structuredClone(question.params);
  // As for elicitation: `task` addresses mcpx, which received the upstream's request.
  delete params.task;
  return sendable(question.method, params);
}
