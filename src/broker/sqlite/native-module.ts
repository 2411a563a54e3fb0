/**
 * The error better-sqlite3 throws when its compiled module does not fit this Node.js (built
 * for another version after a Node upgrade, or never built), told as what to do about it:
 * `npm rebuild`. Pure.
 */

const SIGNS = [/was compiled against a different Node\.js version/i, /NODE_MODULE_VERSION/, /Could not locate the bindings file/i];

/** The message to show instead, or undefined when `error` is not about the native module. */
export function nativeModuleProblem(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_DLOPEN_FAILED" && !SIGNS.some((sign) => sign.test(message))) return undefined;
  if (code === "ERR_DLOPEN_FAILED" && !/better[-_]sqlite3/.test(message)) return undefined;
  const root = /(\/[^'"\s]*?)\/node_modules\/better-sqlite3\//.exec(message)?.[1];
  const where = root ? `in ${root}` : "where mcpx is installed";
  return (
    `mcpx's SQLite module (better-sqlite3) was built for a different Node.js than this one (${process.version}), ` +
    `as happens after Node.js is upgraded: run \`npm rebuild better-sqlite3\` ${where} with this Node.js, or reinstall mcpx`
  );
}
