/**
 * Tool calls into the audit trail (broker/audit-store.ts; questions go in from the broker):
 * whose (the host session, its identity, client and profile, or the `mcpx call` call), the server and
 * tool, the arguments with secrets redacted, how it ended and how long it took. A secret is an
 * argument whose name reads as one (the words the audience check uses), or whose schema says
 * `writeOnly` or `format: password`, at any depth.
 */
import type { Broker } from "../broker/broker.js";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { secretIn } from "../broker/sensitive-words.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { CallOptions } from "../upstream/calls.js";
import type { CallEnd, Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { CallerContext } from "./session.js";

export const REDACTED = "[redacted]";

/**
 * Fire and forget: the call's result does not wait for its audit entry, and a failed write is
 * logged, never thrown at the call.
 */
export function recordCall(broker: Broker, log: Logger, upstream: Upstream, params: JsonObject, options: CallOptions, ended: CallEnd): void {
  const caller = options.owner as CallerContext | undefined;
  const session = caller?.session ?? caller?.run?.session;
  const callId = caller?.callId ?? caller?.run?.callId;
  const tool = typeof params.name === "string" ? params.name : "";
  const schema = upstream.catalog.tools.find((entry) => entry.name === tool)?.inputSchema;
  const client = session?.clientInfo;
  const failed = (error: unknown): void => log.warn("could not add the call to the audit trail", { server: upstream.name, tool, error });
  try {
    broker.store.audit
      .append({
        kind: "call",
        identity: session?.identity ?? LOCAL_IDENTITY,
        ...(session ? { hostSession: session.id } : {}),
        ...(session?.profileName !== undefined ? { profile: session.profileName } : {}),
        ...(client ? { client: `${String(client.name ?? "?")} ${String(client.version ?? "")}`.trim() } : {}),
        ...(callId ? { callId } : {}),
        server: upstream.name,
        tool,
        arguments: redacted(isObject(params.arguments) ? params.arguments : {}, schema),
        outcome: ended.outcome,
        durationMs: ended.durationMs,
        ...(ended.detail ? { detail: ended.detail } : {}),
      })
      .catch(failed);
  } catch (error) {
    // Redacting (or a store that throws before it answers) failed: still the call's business only.
    failed(error);
  }
}

/** The arguments with every secret's value replaced, at any depth. */
export function redacted(value: unknown, schema: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => redacted(item, isObject(schema) ? schema.items : undefined));
  if (!isObject(value)) return value;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const out: JsonObject = {};
  for (const [name, inner] of Object.entries(value)) {
    const field = properties[name];
    out[name] = isSecret(name, field) ? REDACTED : (redacted(inner, field) as JsonObject[string]);
  }
  return out;
}

function isSecret(name: string, schema: unknown): boolean {
  if (isObject(schema) && (schema.writeOnly === true || schema.format === "password")) return true;
  return secretIn(name, "label") !== undefined;
}
