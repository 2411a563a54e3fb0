/**
 * Identities (issue 16): who a question belongs to. A host that signed in with an issuer's token
 * is `<issuer>#<subject>` (an issuer URL has no fragment, so the two parts never blur); the
 * operator (the static host credential, the API token, the page, the CLI on the state dir) and
 * every host when identities are off is "local". A question is seen, answered and completed
 * only by its own identity, on every surface.
 */
import type { QuestionRecord } from "./types.js";

export const LOCAL_IDENTITY = "local";

/** The identity of a token's issuer and subject. */
export function identityFor(issuer: string, subject: string): string {
  return `${issuer}#${subject}`;
}

/** Whose the question is (stored before identities: the operator's). */
export function identityOf(record: Pick<QuestionRecord, "identity">): string {
  return record.identity ?? LOCAL_IDENTITY;
}

/** May `identity` see, answer or complete this question? */
export function visibleTo(record: Pick<QuestionRecord, "identity">, identity: string): boolean {
  return identityOf(record) === identity;
}
