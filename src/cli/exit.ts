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

/**
 * The CliError in `error`, by its name rather than its class: the build's CommonJS entry
 * (main.cjs) holds its own copy of this module, and the commands it imports throw this one's.
 */
export function cliErrorOf(error: unknown): CliError | undefined {
  return error instanceof Error && error.name === "CliError" && typeof (error as CliError).exitCode === "number" ? (error as CliError) : undefined;
}
