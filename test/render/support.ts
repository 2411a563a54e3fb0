/** Shared fixtures for the render tests: frozen inputs and host profiles. */

import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import type { Revision } from "../../src/protocol/revisions.js";
import type { HostProfile } from "../../src/render/host.js";
import { questionFromRequest, type Question } from "../../src/render/question.js";

/** Freeze a value and everything inside it, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function host(revision: Revision, capabilities: JsonObject = {}): HostProfile {
  return deepFreeze({ revision, capabilities });
}

/** A question built the way intake builds it, deep-frozen. */
export function question(method: string, params: JsonObject, server = "crm"): Question {
  const q = questionFromRequest("q1", server, method, params);
  if (q === undefined) throw new Error(`not a question: ${method}`);
  return deepFreeze(q);
}

/** A form elicitation with the given properties. */
export function form(properties: JsonObject, extra: JsonObject = {}): Question {
  return question("elicitation/create", {
    message: "Please fill in your details",
    requestedSchema: { type: "object", properties },
    ...extra,
  });
}
