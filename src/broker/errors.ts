/** Errors a surface reports when an answer cannot be taken. Each says what to do. */
export type BrokerErrorCode = "UNKNOWN_QUESTION" | "ALREADY_SETTLED" | "INVALID_ANSWER" | "PERSON_ONLY";

export class BrokerError extends Error {
  override readonly name = "BrokerError";
  constructor(
    readonly code: BrokerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
