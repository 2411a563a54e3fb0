/**
 * Test oracle: is a JSON-RPC message valid, per the official JSON Schema of a protocol revision,
 * for the side that receives it?
 *
 * Test-only. Runtime code never imports the spec files.
 *
 * Strict mode (the default) also rejects properties a definition does not declare. The official
 * schemas rarely say `additionalProperties: false`, so on their own they cannot catch "sent a field
 * this revision does not have"; strict mode builds a copy of each schema that does. Where the spec
 * really allows extras the schema says so explicitly (`additionalProperties: {}` or `true`: the
 * `Result` base, `_meta`, capabilities' open objects, …) and that is kept.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type Format, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Revision } from "../../src/protocol/revisions.js";

export type ValidationMode = "strict" | "lax";

export interface ValidationOptions {
  /** `strict` (default) rejects undeclared properties; `lax` is the official schema as published. */
  mode?: ValidationMode;
}

export interface ValidationResult {
  valid: boolean;
  /** One line per problem: `<path>: <what is wrong>`, paths rooted at the message. */
  errors: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Strict copies of the schemas

/**
 * Properties whose schemas stay as published: `_meta` is open by definition, and a tool's
 * `inputSchema`/`outputSchema` are JSON Schema documents, where any JSON Schema keyword is fair.
 */
const OPEN_PROPERTIES = new Set(["_meta", "inputSchema", "outputSchema"]);

/** Keywords whose value is one subschema. */
const SUBSCHEMA_KEYS = ["items", "additionalItems", "additionalProperties", "unevaluatedProperties", "not", "if", "then", "else", "contains", "propertyNames"];
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST_KEYS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYS = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];

/**
 * The `Result` base carries an index signature (`additionalProperties: {}`). The schema generator
 * drops it when it flattens `interface X extends Result`, so every specific result is closed;
 * when merging `allOf: [Result, Task]` we do the same, or those results would stay open.
 */
const DROP_INDEX_SIGNATURE_OF = new Set(["Result"]);

function strictCopy(doc: Json, defsKey: string): Json {
  const defs = (doc[defsKey] ?? {}) as Record<string, unknown>;
  const refPrefix = `#/${defsKey}/`;

  const refName = (node: Json): string | undefined =>
    typeof node.$ref === "string" && node.$ref.startsWith(refPrefix) ? node.$ref.slice(refPrefix.length) : undefined;

  /**
   * `allOf` of object schemas becomes one object schema: putting `additionalProperties: false`
   * on each branch would make every branch reject the others' properties.
   * Returns undefined when the branches are not plain object schemas (left as published).
   */
  const mergeAllOf = (node: Json): Json | undefined => {
    const branches = node.allOf as unknown[];
    const properties: Json = {};
    const required = new Set<string>();
    let additional: unknown;
    for (const branch of branches) {
      if (!isObject(branch)) return undefined;
      const name = refName(branch);
      const target = name === undefined ? branch : defs[name];
      if (!isObject(target) || target.$ref !== undefined || target.anyOf || target.oneOf || target.allOf) return undefined;
      if (!isObject(target.properties) && target.type !== "object") return undefined;
      for (const [key, schema] of Object.entries(target.properties ?? {})) {
        // Both branches constrain the same property: both constraints apply.
        properties[key] = key in properties ? { allOf: [properties[key], schema] } : schema;
      }
      for (const key of (target.required as string[] | undefined) ?? []) required.add(key);
      if ("additionalProperties" in target && !(name !== undefined && DROP_INDEX_SIGNATURE_OF.has(name))) {
        additional ??= target.additionalProperties;
      }
    }
    const { allOf: _allOf, ...rest } = node;
    const merged: Json = { ...rest, type: "object", properties };
    if (required.size > 0) merged.required = [...required];
    if (additional !== undefined) merged.additionalProperties = additional;
    return merged;
  };

  const visit = (schema: unknown): unknown => {
    if (!isObject(schema)) return schema;
    let node: Json = { ...schema };
    if (Array.isArray(node.allOf)) {
      const merged = mergeAllOf(node);
      if (merged === undefined) return schema; // not mergeable: keep it as published, lax
      node = merged;
    }
    for (const key of SUBSCHEMA_KEYS) if (isObject(node[key])) node[key] = visit(node[key]);
    for (const key of SUBSCHEMA_LIST_KEYS) if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map(visit);
    for (const key of SUBSCHEMA_MAP_KEYS) {
      const map = node[key];
      if (!isObject(map)) continue;
      node[key] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, key === "properties" && OPEN_PROPERTIES.has(name) ? child : visit(child)]),
      );
    }
    if (isObject(node.properties) && !("additionalProperties" in node)) node.additionalProperties = false;
    return node;
  };

  return visit(doc) as Json;
}

// ---------------------------------------------------------------------------------------------
// Loading and compiling

/** Formats the schemas use. Ajv knows none of them without ajv-formats, which mcpx does not depend on. */
const FORMATS: Record<string, Format> = {
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/,
  "uri-template": true,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  email: true,
  date: true,
  "date-time": true,
};

interface Spec {
  revision: Revision;
  defsKey: "definitions" | "$defs";
  /** As published, for reading the structure (unions, method names). */
  defs: Record<string, Json>;
  /** method → definition name, per kind of message. */
  clientRequests: Map<string, string>;
  serverRequests: Map<string, string>;
  clientNotifications: Map<string, string>;
  serverNotifications: Map<string, string>;
  validators: Map<ValidationMode, { ajv: Ajv; key: string; cache: Map<string, ValidateFunction> }>;
}

const specs = new Map<Revision, Spec>();

function methodsOf(defs: Record<string, Json>, union: string, refPrefix: string): Map<string, string> {
  const methods = new Map<string, string>();
  const members = defs[union]?.anyOf;
  if (!Array.isArray(members)) {
    // A union of one member is published as that member itself (2026-07-28 `ClientNotification`
    // is `CancelledNotification`): find the definition it copies by its method.
    const method = (defs[union]?.properties as Json | undefined)?.method;
    if (!isObject(method) || typeof method.const !== "string") return methods;
    const copied = Object.keys(defs).find(
      (name) => name !== union && ((defs[name]?.properties as Json | undefined)?.method as Json | undefined)?.const === method.const,
    );
    methods.set(method.const, copied ?? union);
    return methods;
  }
  for (const member of members) {
    if (!isObject(member) || typeof member.$ref !== "string") continue;
    const name = member.$ref.slice(refPrefix.length);
    const method = (defs[name]?.properties as Json | undefined)?.method;
    if (isObject(method) && typeof method.const === "string") methods.set(method.const, name);
  }
  return methods;
}

function loadSpec(revision: Revision): Spec {
  const cached = specs.get(revision);
  if (cached) return cached;
  const url = new URL(`../spec/${revision}/schema.json`, import.meta.url);
  const doc = JSON.parse(readFileSync(url, "utf8")) as Json;
  const defsKey = isObject(doc.$defs) ? "$defs" : "definitions";
  const defs = doc[defsKey] as Record<string, Json>;
  const refPrefix = `#/${defsKey}/`;
  const spec: Spec = {
    revision,
    defsKey,
    defs,
    clientRequests: methodsOf(defs, "ClientRequest", refPrefix),
    serverRequests: methodsOf(defs, "ServerRequest", refPrefix),
    clientNotifications: methodsOf(defs, "ClientNotification", refPrefix),
    serverNotifications: methodsOf(defs, "ServerNotification", refPrefix),
    validators: new Map(),
  };
  const draft2020 = String(doc.$schema).includes("2020-12");
  for (const mode of ["strict", "lax"] as const) {
    // verbose: errors carry the failing schema and data, which `explain` needs.
    const options = { strict: false, allErrors: true, verbose: true, formats: FORMATS };
    const ajv = draft2020 ? new Ajv2020(options) : new Ajv(options);
    const key = `mcp-${revision}-${mode}`;
    ajv.addSchema(mode === "strict" ? strictCopy(doc, defsKey) : doc, key);
    spec.validators.set(mode, { ajv, key, cache: new Map() });
  }
  specs.set(revision, spec);
  return spec;
}

function validatorFor(spec: Spec, definition: string, mode: ValidationMode): ValidateFunction {
  const entry = spec.validators.get(mode)!;
  let validate = entry.cache.get(definition);
  if (!validate) {
    if (!(definition in spec.defs)) throw new Error(`${spec.revision} has no definition "${definition}"`);
    validate = entry.ajv.getSchema(`${entry.key}#/${spec.defsKey}/${definition}`);
    if (!validate) throw new Error(`could not compile ${spec.revision} ${definition}`);
    entry.cache.set(definition, validate);
  }
  return validate;
}

// ---------------------------------------------------------------------------------------------
// Error messages

function describeError(error: ErrorObject, at: string): string {
  const path = at + error.instancePath || "/";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return `${path}: unexpected property "${String(params.additionalProperty)}"`;
    case "required":
      return `${path}: missing required property "${String(params.missingProperty)}"`;
    case "const":
      return `${path}: must be ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `${path}: must be one of ${JSON.stringify(params.allowedValues)}`;
    case "anyOf":
      return `${path}: matches none of the allowed shapes`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}

function check(spec: Spec, definition: string, value: unknown, at: string, mode: ValidationMode): string[] {
  const validate = validatorFor(spec, definition, mode);
  if (validate(value)) return [];
  const lines = explain(spec, validate.errors ?? [], definition, at, mode);
  return lines.length > 0 ? lines : [`${at || "/"}: not a valid ${definition}`];
}

const under = (path: string, root: string): boolean => path === root || path.startsWith(`${root}/`);

/**
 * Ajv reports every failing branch of an `anyOf`, mostly "wrong kind" noise. For a union of named
 * definitions, explain the failure against the one branch that was meant instead: the one whose
 * `type` const matches the value (content blocks), else the branch with the fewest errors.
 */
function explain(spec: Spec, errors: ErrorObject[], definition: string, at: string, mode: ValidationMode): string[] {
  const lines: string[] = [];
  const explained: string[] = [];
  const unions = errors.filter((e) => e.keyword === "anyOf").sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const e of unions) {
    if (explained.some((root) => under(e.instancePath, root))) continue;
    const branches = refNames(spec, e.schema);
    if (!branches) continue;
    explained.push(e.instancePath);
    lines.push(...explainUnion(spec, branches, e.data, at + e.instancePath, mode));
  }
  for (const e of errors) {
    if (explained.some((root) => under(e.instancePath, root))) continue;
    lines.push(`${describeError(e, at)} (${definition})`);
  }
  return [...new Set(lines)];
}

/** The definition names of a union whose branches are all `$ref`s, else undefined. */
function refNames(spec: Spec, branches: unknown): string[] | undefined {
  if (!Array.isArray(branches)) return undefined;
  const prefix = `#/${spec.defsKey}/`;
  const names: string[] = [];
  for (const branch of branches) {
    if (!isObject(branch) || typeof branch.$ref !== "string" || !branch.$ref.startsWith(prefix)) return undefined;
    names.push(branch.$ref.slice(prefix.length));
  }
  return names;
}

function explainUnion(spec: Spec, branches: string[], value: unknown, at: string, mode: ValidationMode): string[] {
  const kindOf = (name: string): unknown => {
    const type = (spec.defs[name]?.properties as Json | undefined)?.type;
    return isObject(type) ? type.const : undefined;
  };
  const kinds = branches.map(kindOf);
  if (isObject(value) && typeof value.type === "string" && kinds.every((kind) => typeof kind === "string")) {
    const index = kinds.indexOf(value.type);
    if (index < 0) {
      const allowed = kinds.map((kind) => JSON.stringify(kind)).join(", ");
      return [`${at}/type: "${value.type}" is not allowed here; ${spec.revision} allows ${allowed}`];
    }
    return check(spec, branches[index]!, value, at, mode);
  }
  let closest: { name: string; lines: string[] } | undefined;
  for (const name of branches) {
    const lines = check(spec, name, value, at, mode);
    if (lines.length === 0) return [];
    if (!closest || lines.length < closest.lines.length) closest = { name, lines };
  }
  if (!closest) return [`${at || "/"}: matches none of the allowed shapes`];
  return [`${at || "/"}: matches none of ${branches.join(", ")}; closest is ${closest.name}`, ...closest.lines];
}

// ---------------------------------------------------------------------------------------------
// Messages

type Direction = "toClient" | "toServer";

function envelopeDefinition(spec: Spec, kind: "request" | "notification" | "result" | "error"): string {
  const has = (name: string) => name in spec.defs;
  switch (kind) {
    case "request":
      return "JSONRPCRequest";
    case "notification":
      return "JSONRPCNotification";
    case "result":
      return has("JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse";
    case "error":
      return has("JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError";
  }
}

/** The result type of a request definition: `FooRequest` → `FooResult`, else the empty result. */
function resultDefinition(spec: Spec, requestDefinition: string): string {
  const named = requestDefinition.replace(/Request$/, "Result");
  if (named in spec.defs) return named;
  return "EmptyResult" in spec.defs ? "EmptyResult" : "Result";
}

/** Older revisions define requests and notifications without `jsonrpc`/`id`; those live in the envelope. */
function withoutEnvelope(spec: Spec, definition: string, message: Json): Json {
  const declared = spec.defs[definition]?.properties;
  if (isObject(declared) && "jsonrpc" in declared) return message;
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message;
  return rest;
}

function validateMessage(
  direction: Direction,
  revision: Revision,
  message: unknown,
  requestMethod: string | undefined,
  options: ValidationOptions,
): ValidationResult {
  const mode = options.mode ?? "strict";
  const spec = loadSpec(revision);
  const fail = (...errors: string[]): ValidationResult => ({ valid: false, errors });
  if (!isObject(message)) return fail("/: a JSON-RPC message must be an object");

  const toClient = direction === "toClient";
  const receiver = toClient ? "client" : "server";
  const errors: string[] = [];

  if (typeof message.method === "string") {
    const isRequest = "id" in message;
    const kind = isRequest ? "request" : "notification";
    const catalog = isRequest ? (toClient ? spec.serverRequests : spec.clientRequests) : toClient ? spec.serverNotifications : spec.clientNotifications;
    const definition = catalog.get(message.method);
    errors.push(...check(spec, envelopeDefinition(spec, kind), message, "", mode));
    if (!definition) {
      errors.push(`/method: "${message.method}" is not a ${kind} a ${revision} ${receiver} can receive`);
    } else {
      errors.push(...check(spec, definition, withoutEnvelope(spec, definition, message), "", mode));
    }
  } else if ("error" in message) {
    errors.push(...check(spec, envelopeDefinition(spec, "error"), message, "", mode));
  } else if ("result" in message) {
    errors.push(...check(spec, envelopeDefinition(spec, "result"), message, "", mode));
    if (requestMethod === undefined) {
      errors.push("/result: pass the request's method to validate a result");
    } else {
      // A client receives results of client requests, and the other way round.
      const requests = toClient ? spec.clientRequests : spec.serverRequests;
      const requestDefinition = requests.get(requestMethod);
      if (!requestDefinition) {
        errors.push(`/result: "${requestMethod}" is not a request a ${revision} ${receiver} can send`);
      } else {
        // 2026-07-28: tools/call, prompts/get and resources/read may answer InputRequiredResult instead.
        const inputRequired = isObject(message.result) && message.result.resultType === "input_required" && "InputRequiredResult" in spec.defs;
        const definition = inputRequired ? "InputRequiredResult" : resultDefinition(spec, requestDefinition);
        errors.push(...check(spec, definition, message.result, "/result", mode));
      }
    }
  } else {
    errors.push("/: neither a request, a notification, a result nor an error");
  }
  return { valid: errors.length === 0, errors };
}

/**
 * Validate a message a server sends to a client of `revision`: a server request, a server
 * notification, an error, or the response to a client request (pass that request's method, e.g.
 * `tools/call`, to check the result against `CallToolResult`).
 */
export function validateToClient(revision: Revision, message: unknown, requestMethod?: string, options: ValidationOptions = {}): ValidationResult {
  return validateMessage("toClient", revision, message, requestMethod, options);
}

/**
 * Validate a message a client sends to a server of `revision`: a client request, a client
 * notification, an error, or the response to a server request (pass that request's method, e.g.
 * `elicitation/create` for an `ElicitResult`).
 */
export function validateToServer(revision: Revision, message: unknown, requestMethod?: string, options: ValidationOptions = {}): ValidationResult {
  return validateMessage("toServer", revision, message, requestMethod, options);
}

/** Validate a bare value against one named definition of `revision` (e.g. `Tool`, `ContentBlock`). */
export function validateDefinition(revision: Revision, definition: string, value: unknown, options: ValidationOptions = {}): ValidationResult {
  const errors = check(loadSpec(revision), definition, value, "", options.mode ?? "strict");
  return { valid: errors.length === 0, errors };
}

function expectValid(result: ValidationResult, what: string): void {
  if (!result.valid) throw new Error(`${what}:\n  ${result.errors.join("\n  ")}`);
}

/** Like `validateToClient`, but throws an Error listing the problems. For use in tests. */
export function expectValidToClient(revision: Revision, message: unknown, requestMethod?: string, options: ValidationOptions = {}): void {
  expectValid(validateToClient(revision, message, requestMethod, options), `not valid for a ${revision} client`);
}

/** Like `validateToServer`, but throws an Error listing the problems. For use in tests. */
export function expectValidToServer(revision: Revision, message: unknown, requestMethod?: string, options: ValidationOptions = {}): void {
  expectValid(validateToServer(revision, message, requestMethod, options), `not valid for a ${revision} server`);
}
