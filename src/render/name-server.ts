/**
 * Design rule 3: every question shown to a person or host says which upstream asked.
 * Hosts show the elicitation `message`, so that is where the name goes.
 */

/** Characters that continue a name: a match touching one of them is part of a longer word. */
const NAME_CHAR = /[\p{L}\p{N}_-]/u;

/**
 * Does `message` already name `server` as a whole word? Case-sensitive and bounded on both
 * sides, so "git" is not found in "digit" or "GitHub": a false "already named" would leave
 * the question anonymous, while a false "not named" only repeats the name.
 */
export function namesServer(message: string, server: string): boolean {
  if (server === "") return false;
  for (let at = message.indexOf(server); at !== -1; at = message.indexOf(server, at + 1)) {
    const before = message[at - 1];
    const after = message[at + server.length];
    if ((before === undefined || !NAME_CHAR.test(before)) && (after === undefined || !NAME_CHAR.test(after))) return true;
  }
  return false;
}

/** `message` prefixed with `[server] `, unless it already names the server (or there is no name). */
export function withServerName(message: string, server: string): string {
  if (server === "" || namesServer(message, server)) return message;
  return `[${server}] ${message}`;
}
