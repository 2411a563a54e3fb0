/** Exit codes, as interface.md defines them. */
export const Exit = {
  Ok: 0,
  Error: 1,
  Usage: 2,
  InputRequired: 75,
} as const;

/** An error a command reports to the person, with the code to exit with. No stack trace. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: number = Exit.Error,
  ) {
    super(message);
  }
}
