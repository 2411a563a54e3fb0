/**
 * The id of a call a command sends to the daemon, without node:crypto (loading it costs a warm
 * `mcpx call` a fifth of Node's start). The id needs to be unique, not secret: it is printed in
 * the input-required document, and it opens nothing by itself (the call's record is in the
 * private state directory; the daemon's routes take the credential of its discovery file). Its
 * 122 random bits come from Math.random, which V8 seeds in each process from the system's random
 * source (Node sets V8's entropy source to OpenSSL's), and the daemon refuses an id it has seen:
 * two calls can never share one.
 */
const HEX = "0123456789abcdef";

/** A version 4 UUID, as the daemon's routes take it. */
export function commandId(): string {
  let id = "";
  for (let at = 0; at < 36; at++) {
    if (at === 8 || at === 13 || at === 18 || at === 23) id += "-";
    else if (at === 14) id += "4";
    else if (at === 19) id += HEX[8 + Math.floor(Math.random() * 4)];
    else id += HEX[Math.floor(Math.random() * 16)];
  }
  return id;
}
