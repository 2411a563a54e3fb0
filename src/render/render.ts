/**
 * Rendering is a pure function of question and host (design rule 2): the neutral question
 * in, the request that host's revision accepts out, or why it may not be sent at all.
 */

import type { HostProfile } from "./host.js";
import { renderElicitation } from "./elicitation.js";
import type { Question } from "./question.js";
import type { RenderResult } from "./result.js";
import { renderSampling } from "./sampling.js";

export type { RenderResult } from "./result.js";

export interface RenderOptions {
  /**
   * Prefix an elicitation's message with `[<server>] ` unless it already names the upstream
   * (design rule 3). Default true; false relays the message verbatim. Sampling messages are
   * the model's input and are never altered either way.
   */
  nameServer?: boolean;
}

/**
 * Render `question` for `host`. Never mutates the question; the params returned are a
 * fresh object.
 *
 * Not sendable (with a reason naming what is missing) when the host did not declare the
 * capability or mode, its revision lacks the feature, or the question cannot be expressed
 * in its revision. Hosts of 2025-11-25 and later get the upstream's params as they came,
 * apart from the server name, an `elicitationId` where the revision requires or forbids
 * one, and `task` (which addressed mcpx, not the host).
 */
export function renderForHost(question: Question, host: HostProfile, options: RenderOptions = {}): RenderResult {
  switch (question.method) {
    case "elicitation/create":
      return renderElicitation(question, host, options.nameServer ?? true);
    case "sampling/createMessage":
      return renderSampling(question, host);
  }
}
