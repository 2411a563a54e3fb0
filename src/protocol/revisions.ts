/**
 * The protocol revisions mcpx knows and which features each one defines.
 *
 * Code asks `defines(revision, feature)`; it never compares version strings inline.
 * Adding a revision or a feature is a change to the table below and nothing else.
 */

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Revision = (typeof REVISIONS)[number];

/** Revisions negotiated with the `initialize` handshake (the legacy era). */
export const LEGACY_REVISIONS: readonly Revision[] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/** What mcpx offers upstream and answers a host that asks for something it does not know. */
export const LATEST_LEGACY: Revision = "2025-11-25";

/** Revisions without `initialize`: version and capabilities ride in every request's `_meta`. */
export const MODERN_REVISIONS: readonly Revision[] = REVISIONS.filter((revision) => !LEGACY_REVISIONS.includes(revision));

/** Revisions mcpx serves to hosts: the legacy ones after `initialize`, the modern ones per request. */
export const SERVED_REVISIONS: readonly Revision[] = REVISIONS;

/** A feature is present from `since` and, if `until` is set, gone from `until` on. */
interface Span {
  since: Revision;
  until?: Revision;
}

const FEATURES = {
  // lifecycle and transport
  initialize: { since: "2024-11-05", until: "2026-07-28" },
  jsonRpcBatch: { since: "2025-03-26", until: "2025-06-18" },
  streamableHttp: { since: "2025-03-26" },
  protocolVersionHeader: { since: "2025-06-18" },
  ping: { since: "2024-11-05", until: "2026-07-28" },
  loggingSetLevel: { since: "2024-11-05", until: "2026-07-28" },
  resourceSubscribe: { since: "2024-11-05", until: "2026-07-28" },
  /**
   * SEP-1699: a POST's SSE stream opens with an event id and empty data, and a `retry` field
   * (an older client would read the empty data as a malformed message; 2026-07-28 does not resume).
   */
  ssePriming: { since: "2025-11-25", until: "2026-07-28" },
  // content and metadata
  audioContent: { since: "2025-03-26" },
  toolAnnotations: { since: "2025-03-26" },
  completions: { since: "2025-03-26" },
  progressMessage: { since: "2025-03-26" },
  structuredContent: { since: "2025-06-18" },
  outputSchema: { since: "2025-06-18" },
  resourceLink: { since: "2025-06-18" },
  title: { since: "2025-06-18" },
  /** `_meta` on content blocks and on embedded/read resource contents. */
  contentMeta: { since: "2025-06-18" },
  /** `_meta` on tools, resources, resource templates and prompts. */
  primitiveMeta: { since: "2025-06-18" },
  /** `lastModified` in content and resource `annotations` (audience and priority are older). */
  annotationsLastModified: { since: "2025-06-18" },
  /** `_meta` in the params of progress, message, resources/updated and cancelled notifications. */
  notificationParamsMeta: { since: "2025-11-25" },
  completionContext: { since: "2025-06-18" },
  icons: { since: "2025-11-25" },
  /** A tool's `execution` (its task support): 2025-11-25 core tasks; the 2026 Tool has none (the tasks extension decides per call). */
  toolExecution: { since: "2025-11-25", until: "2026-07-28" },
  samplingTools: { since: "2025-11-25" },
  /** A sampling message's `content` may be a list of blocks, not just one. */
  samplingContentArrays: { since: "2025-11-25" },
  tasks: { since: "2025-11-25", until: "2026-07-28" },
  // questions
  elicitation: { since: "2025-06-18" },
  elicitationUrl: { since: "2025-11-25" },
  elicitationId: { since: "2025-11-25", until: "2026-07-28" },
  elicitationComplete: { since: "2025-11-25", until: "2026-07-28" },
  urlElicitationRequiredError: { since: "2025-11-25", until: "2026-07-28" },
  richEnums: { since: "2025-11-25" },
  elicitationDefaults: { since: "2025-11-25" },
  /** `$schema` on an elicitation's `requestedSchema`. */
  elicitationSchemaDialect: { since: "2025-11-25" },
  // the modern era
  serverDiscover: { since: "2026-07-28" },
  /** Version, capabilities and client info in every request's `_meta`, instead of a session. */
  requestEnvelope: { since: "2026-07-28" },
  /** List changes and resource updates arrive on a `subscriptions/listen` stream. */
  subscriptionsListen: { since: "2026-07-28" },
  /** `Mcp-Method` and `Mcp-Name` headers on Streamable HTTP. */
  methodHeaders: { since: "2026-07-28" },
  /** Streamable HTTP sessions (`Mcp-Session-Id`) and the standing GET stream. */
  httpSessions: { since: "2025-03-26", until: "2026-07-28" },
  /** Resuming a broken response stream with GET and `Last-Event-ID`. */
  streamResumption: { since: "2025-03-26", until: "2026-07-28" },
  /** Client notifications beyond cancellation (`notifications/initialized`, `notifications/roots/list_changed`). */
  clientNotifications: { since: "2024-11-05", until: "2026-07-28" },
  inputRequired: { since: "2026-07-28" },
  resultType: { since: "2026-07-28" },
} as const satisfies Record<string, Span>;

export type Feature = keyof typeof FEATURES;

function index(revision: Revision): number {
  return REVISIONS.indexOf(revision);
}

/** Does `revision` define `feature`? */
export function defines(revision: Revision, feature: Feature): boolean {
  const span: Span = FEATURES[feature];
  const at = index(revision);
  if (at < index(span.since)) return false;
  return span.until === undefined || at < index(span.until);
}

export function isRevision(value: unknown): value is Revision {
  return typeof value === "string" && (REVISIONS as readonly string[]).includes(value);
}

/**
 * The revision to answer a host's `initialize` with: the one it asked for when mcpx serves it
 * with `initialize`, otherwise the newest legacy revision (the spec's counter-offer). A modern
 * revision asked for in `initialize` is counter-offered too: that revision has no handshake, and
 * `initialize` itself selects the legacy era.
 */
export function negotiateForHost(requested: unknown): Revision {
  if (isRevision(requested) && SERVED_REVISIONS.includes(requested) && defines(requested, "initialize")) return requested;
  return LATEST_LEGACY;
}

/** The newest modern revision mcpx speaks among those a server says it supports. */
export function modernFromUpstream(supported: readonly string[]): Revision | undefined {
  return [...MODERN_REVISIONS].reverse().find((revision) => supported.includes(revision));
}

/** May a modern request name this revision in its `_meta` (else -32022)? */
export function servedModern(requested: unknown): requested is Revision {
  return isRevision(requested) && MODERN_REVISIONS.includes(requested) && SERVED_REVISIONS.includes(requested);
}

/** Can mcpx, as a client, work with the revision an upstream answered `initialize` with? */
export function acceptableFromUpstream(answered: unknown): answered is Revision {
  return isRevision(answered) && LEGACY_REVISIONS.includes(answered);
}
