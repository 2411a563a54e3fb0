/** The broker's records: a question as state with a deadline, and the answer that settled it. */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { QuestionKind } from "../render/question.js";

export type QuestionState = "pending" | "answered" | "expired" | "closed";
export type Action = "accept" | "decline" | "cancel";
export type Audience = "person" | "agent";

export interface Answer {
  action: Action;
  /** Form content (elicitation accept), or the whole result for sampling. */
  content?: JsonObject;
  /** Who answered: `cli`, `web`, `rest`, `host:<session>`, `agent-tool`, `rule:<n>`, `expiry`, ... */
  by: string;
  /** The network address it came from, for an answer given over HTTP (REST, the page). */
  from?: string;
  answeredAt: string;
}

export interface Completion {
  /** `server:<name>` (the upstream's notification), `cli`, `web`, `rest`. */
  by: string;
  completedAt: string;
}

export interface QuestionRecord {
  id: string;
  server: string;
  kind: QuestionKind;
  method: string;
  mode?: "form" | "url";
  message: string;
  /** The upstream's params exactly as sent. */
  params: JsonObject;
  requestedSchema?: JsonObject;
  url?: string;
  /** The tool call the question came from, when known. */
  tool?: string;
  /** The host session whose call caused it, when attributed. */
  hostSession?: string;
  /** The `mcpx call` call that caused it, when attributed. */
  callId?: string;
  /** Whose it is (broker/identity.ts); absent: the operator's, "local". */
  identity?: string;
  audience: Audience;
  audienceReason: string;
  createdAt: string;
  expiresAt: string;
  state: QuestionState;
  answer?: Answer;
  /** When the waiting process handed the answer to the upstream (absent: not yet, or never). */
  deliveredAt?: string;
  /**
   * URL questions: the interaction at the URL is finished (accept is only consent). Set by the
   * upstream's `notifications/elicitation/complete` (`by: "server:<name>"`) or by a person.
   */
  completion?: Completion;
  /** The process waiting on it (pid and a per-process instance id). */
  ownerPid: number;
  ownerInstance: string;
}

/** Where a question came from, as far as mcpx knows. */
export interface Origin {
  tool?: string;
  hostSession?: string;
  callId?: string;
  /** The identity of the host or call it came from; absent: "local". */
  identity?: string;
}
