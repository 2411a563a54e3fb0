/**
 * A configuration problem the person must fix: bad JSON, an unknown key, a wrong type, an
 * unset variable, a missing file. The CLI prints `message` and exits 2; never a stack trace.
 * The message already names the file and the key path (one problem per line).
 */
export class ConfigError extends Error {
  readonly code = "CONFIG_INVALID";

  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
