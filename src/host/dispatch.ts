/**
 * What mcpx does with each request a host sends: the MCP server side of the gateway.
 */
import { ErrorCode, isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { invalidParams, methodNotFound, RpcError } from "../protocol/errors.js";
import { defines, MODERN_REVISIONS, negotiateForHost } from "../protocol/revisions.js";
import { downgradeResult } from "../protocol/downgrade.js";
import { lookupTable } from "../protocol/lookup.js";
import type { IncomingContext } from "../rpc/peer.js";
import { IMPLEMENTATION } from "../version.js";
import type { Owned } from "./catalogue.js";
import type { Gateway } from "./gateway.js";
import { page } from "./pagination.js";
import { agentTools, callAgentTool, isAgentTool, offersAgentTools } from "./agent-tools.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { LOG_LEVELS, type CallerContext, type HostSession, type LogLevel } from "./session.js";
import { ForwardedCall } from "./forwarded-call.js";
import { withFixedArguments } from "./profile-view.js";
import { callKey } from "./parked-calls.js";
import { sendResolvingUrlRequired } from "./url-required.js";
import { hostInstructions } from "./instructions.js";
import { CALL_TOOL, isGatewayTool } from "./gateway-tools/definitions.js";
import { listedTools } from "./gateway-tools/exposed-tools.js";
import { answerGatewayTool, servedUpstreams } from "./gateway-tools/answers.js";
import { unwrapCall } from "./gateway-tools/call.js";
import { EXEC_TOOL } from "./gateway-tools/exec.js";
import { serveExec } from "./gateway-tools/exec-call.js";
import { serveSignIn, SIGN_IN_TOOL, signInToolDefinitions } from "./gateway-tools/sign-in.js";
import type { Upstream } from "../upstream/upstream.js";
import { TASK_HANDLERS, relayTaskCall } from "./tasks/methods.js";
import { hostTasksCapability, runsToolTasks, toolsForHost } from "./tasks/capability.js";
import { MODERN_TASK_HANDLERS } from "./tasks/modern-methods.js";
import { callMayStartTask, taskShapeOf } from "./tasks/start.js";

type Handler = (gateway: Gateway, session: HostSession, context: IncomingContext, params: JsonObject) => Promise<JsonObject>;

/** Keyed by what hosts send: a Map, so that `toString` or `__proto__` is just an unknown method. */
const HANDLERS = lookupTable<Handler>({
  initialize,
  ping: async () => ({}),
  "tools/list": async (gateway, session, _context, params) => {
    const { config, catalogue } = gateway.viewFor(session);
    const upstreamOf = (tool: JsonObject): Upstream | undefined => gateway.upstream(catalogue.tool(String(tool.name))?.server ?? "");
    const tools = [...toolsForHost(listedTools(config, catalogue), session, upstreamOf), ...signInToolDefinitions(gateway.serversAwaitingSignIn(session))];
    return list(offersAgentTools(gateway, session) ? [...tools, ...agentTools(gateway.servesPage)] : tools, "tools", params);
  },
  "prompts/list": async (gateway, session, _context, params) => list(gateway.viewFor(session).catalogue.prompts, "prompts", params),
  "resources/list": async (gateway, session, _context, params) => list(gateway.viewFor(session).catalogue.resources, "resources", params),
  "resources/templates/list": async (gateway, session, _context, params) =>
    list(gateway.viewFor(session).catalogue.resourceTemplates, "resourceTemplates", params),
  "tools/call": callTool,
  "prompts/get": (gateway, session, context, params) =>
    forward(gateway, session, context, "name", params, gateway.viewFor(session).catalogue.prompt(requireString(params, "name")), "prompt"),
  "resources/read": (gateway, session, context, params) =>
    forward(gateway, session, context, "uri", params, gateway.viewFor(session).catalogue.resource(requireString(params, "uri")), "resource"),
  "resources/subscribe": subscribe,
  "resources/unsubscribe": unsubscribe,
  "completion/complete": complete,
  "logging/setLevel": setLevel,
  ...TASK_HANDLERS,
  // The same names in the 2026 tasks extension, for a modern host (tasks/modern-methods.ts).
  "tasks/get": byEra(TASK_HANDLERS["tasks/get"]!, MODERN_TASK_HANDLERS["tasks/get"]!),
  "tasks/cancel": byEra(TASK_HANDLERS["tasks/cancel"]!, MODERN_TASK_HANDLERS["tasks/cancel"]!),
  "tasks/update": byEra(undefined, MODERN_TASK_HANDLERS["tasks/update"]!),
});

/** A method both eras name, served each its own way (a legacy one without a handler of its own is unknown). */
function byEra(legacy: Handler | undefined, modern: Handler): Handler {
  return (gateway, session, context, params) => {
    if (session.revision && MODERN_REVISIONS.includes(session.revision)) return modern(gateway, session, context, params);
    return legacy ? legacy(gateway, session, context, params) : Promise.reject(methodNotFound(context.request.method));
  };
}

/** Answer one host request. Errors thrown here become JSON-RPC error responses. */
export async function dispatch(gateway: Gateway, session: HostSession, context: IncomingContext): Promise<JsonObject> {
  const { method } = context.request;
  const params = context.request.params ?? {};
  const handler = HANDLERS.get(method);
  if (!handler) throw methodNotFound(method);
  // A host that pipelines requests behind initialize gets them answered after it, not refused.
  if (method !== "initialize" && session.initializing !== undefined) await session.initializing.catch(() => {});
  if (method !== "initialize" && method !== "ping" && !session.initialized) {
    throw new RpcError(ErrorCode.InvalidRequest, `${method} before initialize: send initialize first`);
  }
  const pending = handler(gateway, session, context, params);
  if (method === "initialize") session.initializing = pending;
  const result = await pending;
  return session.revision ? downgradeResult(method, result, session.revision) : result;
}

/**
 * A host's tool call. mcpx's own tools are answered here; `mcpx__call` is unwrapped into the
 * call of the tool it names and takes the same path as a direct call (design rule 11);
 * `mcpx__exec` (both expose modes) runs a script whose every call is of this one.
 */
async function callTool(gateway: Gateway, session: HostSession, context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const name = requireString(params, "name");
  const args = isObject(params.arguments) ? params.arguments : {};
  if (isAgentTool(name)) return callAgentTool(gateway, session, name, args);
  if (name === EXEC_TOOL) return serveExec(gateway, session, context, params, isLegacyHost(session));
  if (name === SIGN_IN_TOOL) return serveSignIn(gateway, session, context, params);
  const view = gateway.viewFor(session);
  if (view.config.expose === "discovery" && isGatewayTool(name)) {
    if (name !== CALL_TOOL) return answerGatewayTool(gateway, session, name, args);
    const unwrapped = await unwrapCall(gateway, session, params);
    if ("refusal" in unwrapped) return unwrapped.refusal;
    return forwardCall(gateway, session, context, unwrapped.params, unwrapped.owned);
  }
  return forwardCall(gateway, session, context, params, view.catalogue.tool(name));
}

/** A tool call on its way upstream; one that may start a task comes back as a task relayed for the host (host/tasks/). */
async function forwardCall(gateway: Gateway, session: HostSession, context: IncomingContext, asked: JsonObject, owned: Owned | undefined): Promise<JsonObject> {
  const send = (sent: JsonObject, relayTask: boolean): Promise<JsonObject> => forward(gateway, session, context, "name", sent, owned, "tool", relayTask);
  const params = withoutModernHostsTask(session, asked);
  const shape = taskShapeOf(session, params);
  const upstream = owned && shape ? await gateway.connectionFor(session, owned.server) : undefined;
  if (!owned || !shape || !upstream) return send(params, false);
  if (shape === "2025") {
    // A dual-era server's legacy lane carries this host's call (legacy-lane.ts): its task is that connection's.
    const legacy = (await upstream.legacyLane()) ?? upstream;
    if (runsToolTasks(legacy)) return relayTaskCall(gateway, session, legacy, owned.original, () => send(params, false));
  }
  return callMayStartTask(gateway, session, upstream, owned.original, shape, params, send);
}

/** A 2026-07-28 host's `task` is 2025 vocabulary the extension ignores (the server decides): it goes no further. */
function withoutModernHostsTask(session: HostSession, params: JsonObject): JsonObject {
  if (!session.revision || isLegacyHost(session) || params.task === undefined) return params;
  const { task: _ignored, ...rest } = params;
  return rest;
}

async function initialize(gateway: Gateway, session: HostSession, _context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  if (session.initialized) throw new RpcError(ErrorCode.InvalidRequest, "initialize was already done on this connection");
  if (typeof params.protocolVersion !== "string") throw invalidParams("initialize needs a protocolVersion string");
  await gateway.start();
  const revision = negotiateForHost(params.protocolVersion);
  session.capabilities = isObject(params.capabilities) ? params.capabilities : {};
  session.clientInfo = isObject(params.clientInfo) ? params.clientInfo : undefined;
  session.revision = revision;
  gateway.log.info("host initialized", { session: session.id, revision, asked: params.protocolVersion, client: session.clientInfo?.name });
  const capabilities: JsonObject = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    logging: {},
  };
  if (defines(revision, "completions")) capabilities.completions = {};
  // Declared to the extent the upstreams can honour it, as they are now (host/tasks/capability.ts).
  // Of the servers the host's profile serves: one it cannot reach offers it no tasks.
  const tasks = hostTasksCapability(revision, servedUpstreams(gateway, gateway.viewFor(session)));
  if (tasks) {
    capabilities.tasks = tasks;
    session.tasksOffered = true;
  }
  const instructions = hostInstructions(gateway, session);
  return {
    protocolVersion: revision,
    capabilities,
    serverInfo: { ...IMPLEMENTATION },
    ...(instructions ? { instructions } : {}),
  };
}

async function list(items: JsonObject[], key: string, params: JsonObject): Promise<JsonObject> {
  return page(items, key, params.cursor);
}

function requireString(params: JsonObject, key: string): string {
  const value = params[key];
  if (typeof value !== "string") throw invalidParams(`"${key}" must be a string`);
  return value;
}

/** Send a host's request to the upstream that owns the named tool, prompt or resource. */
async function forward(
  gateway: Gateway,
  session: HostSession,
  context: IncomingContext,
  key: "name" | "uri",
  params: JsonObject,
  owned: Owned | undefined,
  kind: string,
  relayTask = false,
): Promise<JsonObject> {
  if (!owned) {
    if (kind === "resource") throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${String(params[key])}`, { uri: params[key] });
    throw unknownName(gateway, session, kind, String(params[key]));
  }
  const upstream = await gateway.connectionFor(session, owned.server);
  if (!upstream) throw new RpcError(ErrorCode.InternalError, `no upstream named "${owned.server}"`);
  const { method, id } = context.request;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const hostToken = meta?.progressToken;
  const { progressToken: _dropped, ...restMeta } = meta ?? {};
  const sent: JsonObject = { ...params, [key]: owned.original };
  // A profile's fixed arguments are sent whatever the host sent (or refused when it sent others).
  if (owned.fixed) sent.arguments = withFixedArguments(owned, params.arguments);
  if (meta) {
    if (Object.keys(restMeta).length) sent._meta = restMeta;
    else delete sent._meta;
  }
  // The host's retry of a call it was answered -32042 for: it waits for the same work.
  const retryKey = (): string => callKey(method, params);
  const parked = gateway.parked.take(session, retryKey);
  if (parked) {
    gateway.log.info("a host retried a call it was answered -32042 for; it waits for that call", { session: session.id, method, server: owned.server });
    return parked.serve(context, () => gateway.parked.park(session, retryKey(), parked));
  }
  const owner: CallerContext = { session, requestId: id, ...(method === "tools/call" ? { tool: owned.original } : {}) };
  const onProgress =
    typeof hostToken === "string" || typeof hostToken === "number"
      ? (progress: JsonObject): void => {
          session.notify(
            "notifications/progress",
            { ...progress, progressToken: hostToken },
            owner.requestId !== undefined ? { relatedRequestId: owner.requestId } : undefined,
          );
        }
      : undefined;
  const clientCapabilities = answerableCapabilities(gateway, session, upstream);
  const call = new ForwardedCall(owner, owned.server, (signal) =>
    sendResolvingUrlRequired(gateway, upstream, owner, method, signal, () =>
      upstream.call(method, sent, {
        owner,
        signal,
        legacyCaller: isLegacyHost(session),
        ...(relayTask ? { relayTask } : {}),
        ...(onProgress ? { onProgress } : {}),
        ...(clientCapabilities ? { clientCapabilities } : {}),
      }),
    ),
  );
  return call.serve(context, () => gateway.parked.park(session, retryKey(), call));
}

/**
 * With `elicitation.mode` "host" only the calling host answers questions, so a modern host's
 * request to a modern server declares what that host declared (and roots when the config has
 * them: those are mcpx's to give), not all mcpx could take: the server asks only what can be
 * answered, or answers -32021 itself. Undefined: mcpx's own declaration.
 */
function answerableCapabilities(gateway: Gateway, session: HostSession, upstream: Upstream): JsonObject | undefined {
  if (gateway.config.elicitation.mode !== "host" || !session.revision || !MODERN_REVISIONS.includes(session.revision)) return undefined;
  const { elicitation, sampling, roots } = session.capabilities;
  const configuredRoots = upstream.config.roots ?? gateway.config.roots;
  return {
    ...(isObject(elicitation) ? { elicitation } : {}),
    ...(isObject(sampling) ? { sampling } : {}),
    ...(configuredRoots || isObject(roots) ? { roots: {} } : {}),
  };
}

/** A host that initialized in a legacy revision: a server that speaks both eras serves its calls in one too. */
function isLegacyHost(session: HostSession): boolean {
  return session.revision !== undefined && !MODERN_REVISIONS.includes(session.revision);
}

/** An unknown tool or prompt, with the exposed names nearest to it (the names hosts see). */
function unknownName(gateway: Gateway, session: HostSession, kind: string, name: string): RpcError {
  const { catalogue } = gateway.viewFor(session);
  const items = kind === "prompt" ? catalogue.prompts : catalogue.tools;
  const suggestions = nearest(
    name,
    items.map((item) => String(item.name)),
  );
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params: unknown ${kind} "${name}"${didYouMean(suggestions)}`,
    suggestions.length ? { suggestions } : undefined,
  );
}

async function subscribe(gateway: Gateway, session: HostSession, context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const uri = requireString(params, "uri");
  const owned = gateway.viewFor(session).catalogue.resource(uri);
  // Subscribed before the upstream answers: it may send an update right after its answer,
  // and that update must not find the host not yet subscribed.
  const already = session.subscriptions.has(uri);
  session.subscriptions.add(uri);
  try {
    await forward(gateway, session, context, "uri", params, owned, "resource");
  } catch (error) {
    if (!already) session.subscriptions.delete(uri);
    throw error;
  }
  return {};
}

async function unsubscribe(gateway: Gateway, session: HostSession, _context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  await gateway.unsubscribe(session, requireString(params, "uri"));
  return {};
}

async function complete(gateway: Gateway, session: HostSession, context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const ref = isObject(params.ref) ? params.ref : undefined;
  let owned: Owned | undefined;
  let key: "name" | "uri" = "name";
  const { catalogue } = gateway.viewFor(session);
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") owned = catalogue.prompt(ref.name);
  else if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    key = "uri";
    owned = catalogue.template(ref.uri) ?? catalogue.resource(ref.uri);
  } else throw invalidParams('"ref" must be a ref/prompt with a name or a ref/resource with a uri');
  if (!owned) throw invalidParams(`nothing to complete for ${JSON.stringify(ref)}`);
  const upstream = await gateway.connectionFor(session, owned.server);
  // An upstream without completions has none to offer: an empty answer, not an error.
  if (!upstream || upstream.capabilities.completions === undefined) return { completion: { values: [], hasMore: false } };
  const sent = { ...params, ref: { ...ref, [key]: owned.original } };
  return upstream.call("completion/complete", sent, {
    owner: { session, requestId: context.request.id },
    signal: context.signal,
    legacyCaller: isLegacyHost(session),
  });
}

async function setLevel(gateway: Gateway, session: HostSession, _context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const level = params.level;
  if (!LOG_LEVELS.includes(level as LogLevel)) throw invalidParams(`"level" must be one of ${LOG_LEVELS.join(", ")}`);
  session.logLevel = level as LogLevel;
  await gateway.applyLogLevel();
  return {};
}
