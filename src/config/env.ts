/**
 * `${VAR}` and `${VAR:-default}` in string values, replaced from an environment.
 * Only `${...}` is special; a lone `$` (or `$$`) is kept as written.
 */
import { ConfigError } from "./errors.js";
import { type KeyPath, formatPath } from "./keypath.js";
import { orderedEntries, orderedObject } from "./ordered.js";

/** An environment to read variables from; `process.env` fits. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Resolves a reference that hosts define (`${env:NAME}`, `${input:id}`, `${workspaceFolder}`):
 * given the text between `${` and `}`, a value, a problem, or undefined for "not mine".
 */
export type ReferenceResolver = (body: string, at: KeyPath) => { value: string } | { problem: string } | undefined;

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Returns a copy of `value` with every `${...}` in every string (at any depth) replaced.
 * `${VAR:-default}` uses `default` when VAR is unset or empty, as the shell does.
 * Keys are not substituted, and neither is a top-level `$schema`.
 * `resolve` handles references hosts define; `base` is where `value` sits in the document.
 * @throws ConfigError naming each unset variable and the key path that uses it.
 */
export function substituteEnv(value: unknown, env: Env, file: string, resolve?: ReferenceResolver, base: KeyPath = []): unknown {
  const problems: string[] = [];
  const walk = (v: unknown, at: KeyPath): unknown => {
    if (typeof v === "string") {
      const host = resolve ? (body: string) => resolve(body, at) : undefined;
      return substituteString(v, env, (p) => problems.push(`${file}: ${formatPath(at)} ${p}`), host);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v !== null && typeof v === "object") {
      return orderedObject(orderedEntries(v).map(([k, item]) => [k, at.length === 0 && k === "$schema" ? item : walk(item, [...at, k])]));
    }
    return v;
  };
  const result = walk(value, base);
  if (problems.length > 0) throw new ConfigError(problems.join("\n"));
  return result;
}

/** Substitutes one string; each problem is reported through `fail` and left in place. */
function substituteString(text: string, env: Env, fail: (problem: string) => void, host?: (body: string) => ReturnType<ReferenceResolver>): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("${", from);
    if (open === -1) return out + text.slice(from);
    out += text.slice(from, open);
    const close = text.indexOf("}", open + 2);
    if (close === -1) {
      fail(`has an unterminated "\${" (write \${NAME} or \${NAME:-default})`);
      return out + text.slice(open);
    }
    const ref = text.slice(open, close + 1);
    const body = text.slice(open + 2, close);
    const resolved = host?.(body);
    const match = REFERENCE.exec(body);
    if (resolved) {
      if ("value" in resolved) out += resolved.value;
      else {
        fail(resolved.problem);
        out += ref;
      }
    } else if (!match) {
      fail(`has a malformed reference ${ref} (write \${NAME} or \${NAME:-default})`);
      out += ref;
    } else {
      const [, name = "", fallback] = match;
      const set = env[name];
      if (fallback !== undefined && (set === undefined || set === "")) out += fallback;
      else if (set !== undefined) out += set;
      else {
        fail(`uses \${${name}}, but the environment variable ${name} is not set`);
        out += ref;
      }
    }
    from = close + 1;
  }
}
