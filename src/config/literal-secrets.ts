/**
 * Secrets a host's file holds as literal text (an API key in `env`, a token in an
 * `Authorization` header, in a URL's query or password, after `--token` in `args`), found in
 * an imported server entry so `mcpx import` can say so and move them into `${VAR}` references.
 * A value that is already a reference is not a literal secret.
 */
import { isObject } from "./check.js";
import type { KeyPath } from "./keypath.js";

export interface LiteralSecret {
  /** Where it is, inside the server entry (`["env", "BRAVE_API_KEY"]`). */
  at: KeyPath;
  /** The secret text itself (never printed). */
  value: string;
  /** The variable name it could become, before collisions are resolved. */
  suggested: string;
  /** The string at `at` (as it is now: one string may hold two secrets) with this secret replaced by `reference`. */
  replace: (current: string, reference: string) => string;
}

// Words of a key, header, query parameter or flag name that say its value is a credential.
const SECRET_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "pat",
  "auth",
  "authorization",
  "credential",
  "credentials",
  "cookie",
]);
// Values that are settings, not secrets, whatever the name (`AUTH_ENABLED=true`).
const SETTING = /^(true|false|yes|no|on|off|none|null|\d{1,5})$/i;
const SCHEME = /^((?:Bearer|Basic|Token|Bot)\s+)/i;
const REFERENCE = /\$\{[^}]*\}/g;

/** The words of a name: `X-Api-Key` → x, api, key; `githubToken` → github, token. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function isSecretName(name: string): boolean {
  return words(name).some((w) => SECRET_WORDS.has(w));
}

/** A variable name: capitals, digits and `_`. */
export function variableName(...parts: string[]): string {
  const name = parts
    .map((p) => p.replace(/([a-z0-9])([A-Z])/g, "$1_$2"))
    .join("_")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `_${name}` : name || "SECRET";
}

/** The secret part of a credential value (after a `Bearer ` scheme), if it is literal. */
function literalPart(value: string): { prefix: string; secret: string } | undefined {
  const prefix = SCHEME.exec(value)?.[1] ?? "";
  const secret = value.slice(prefix.length);
  if (secret.replace(REFERENCE, "").trim() === "" || SETTING.test(secret.trim())) return undefined;
  return { prefix, secret };
}

/** Every literal secret of one server entry (as `mcpx import` writes it), in the entry's order. */
export function literalSecrets(server: string, entry: Record<string, unknown>): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  const prefix = variableName(server);
  const credential = (at: KeyPath, value: string, suggested: string) => {
    const part = literalPart(value);
    if (part) found.push({ at, value: part.secret, suggested, replace: (_, ref) => `${part.prefix}${ref}` });
  };
  if (isObject(entry.env)) {
    for (const [key, value] of Object.entries(entry.env)) {
      if (typeof value !== "string") continue;
      if (isSecretName(key)) credential(["env", key], value, /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : variableName(prefix, key));
      else urlSecrets(["env", key], value, prefix, found);
    }
  }
  if (isObject(entry.headers)) {
    for (const [header, value] of Object.entries(entry.headers)) {
      if (typeof value !== "string" || !isSecretName(header)) continue;
      const lower = header.toLowerCase();
      credential(["headers", header], value, variableName(prefix, lower === "authorization" ? "token" : lower === "cookie" ? "cookie" : header));
    }
  }
  if (typeof entry.url === "string") urlSecrets(["url"], entry.url, prefix, found);
  if (Array.isArray(entry.args)) argSecrets(entry.args, prefix, found);
  return found;
}

/** A URL's password and its query parameters with secret names (`?api_key=…`). */
function urlSecrets(at: KeyPath, text: string, prefix: string, found: LiteralSecret[]): void {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*)@/i.exec(text);
  const userinfo = match?.[2];
  if (match && userinfo?.includes(":")) {
    const colon = userinfo.indexOf(":");
    const password = userinfo.slice(colon + 1);
    const head = `${match[1]}${userinfo.slice(0, colon + 1)}`;
    if (literalPart(password))
      found.push({
        at,
        value: password,
        suggested: variableName(prefix, "password"),
        replace: (current, ref) => current.replace(`${head}${password}@`, `${head}${ref}@`),
      });
  }
  const query = text.indexOf("?");
  if (query === -1) return;
  for (const param of text
    .slice(query + 1)
    .split("#")[0]
    ?.split("&") ?? []) {
    const eq = param.indexOf("=");
    const name = param.slice(0, eq);
    const value = param.slice(eq + 1);
    if (eq <= 0 || !isSecretName(name) || !literalPart(value)) continue;
    found.push({ at, value, suggested: variableName(prefix, name), replace: (current, ref) => current.replace(param, `${name}=${ref}`) });
  }
}

/** `--token=VALUE`, `--api-key VALUE`, and URLs with a password, in `args`. */
function argSecrets(args: unknown[], prefix: string, found: LiteralSecret[]): void {
  args.forEach((arg, i) => {
    if (typeof arg !== "string") return;
    const flag = /^(--?[A-Za-z][A-Za-z0-9-_]*)(=(.*))?$/.exec(arg);
    const next = args[i + 1];
    if (flag && isSecretName(flag[1] ?? "")) {
      const name = variableName(prefix, flag[1] ?? "");
      if (flag[2] !== undefined) {
        const part = literalPart(flag[3] ?? "");
        if (part) found.push({ at: ["args", i], value: part.secret, suggested: name, replace: (_, ref) => `${flag[1]}=${part.prefix}${ref}` });
      } else if (typeof next === "string" && !next.startsWith("-")) {
        const part = literalPart(next);
        if (part) found.push({ at: ["args", i + 1], value: part.secret, suggested: name, replace: (_, ref) => `${part.prefix}${ref}` });
      }
      return;
    }
    const previous = args[i - 1];
    if (typeof previous === "string" && /^--?[A-Za-z]/.test(previous) && !previous.includes("=") && isSecretName(previous)) return; // done above
    urlSecrets(["args", i], arg, prefix, found);
  });
}
