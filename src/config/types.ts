/** The typed configuration model: what the rest of mcpx reads, never the raw JSON. */
import type { Revision } from "../protocol/revisions.js";

/** How an HTTP upstream is spoken to; `auto` tries Streamable HTTP, then falls back to SSE. */
/** `http.auth`: the static host credential, identities from an issuer's tokens, or both. */
export interface HttpAuth {
  token?: string;
  tokenFile?: string;
  /** The authorization server whose JWT access tokens `/mcp` and `/v1` accept (RFC 9728). */
  issuer?: string;
  /** The `aud` a token must carry; absent: mcpx's own `/mcp` URL. */
  audience?: string;
  /** Where the issuer's keys are; absent: from its metadata (RFC 8414, then OpenID discovery). */
  jwksUri?: string;
  /** Scopes every token must carry (403 insufficient_scope otherwise); also advertised. */
  scopes?: string[];
}

export type TransportChoice = "auto" | "streamable-http" | "sse";

/** A pinned protocol revision, or `auto` to negotiate. */
export type ProtocolChoice = "auto" | Revision;

/**
 * Whether hosts share one connection to an upstream (`shared`), or each host gets a
 * connection (for stdio, a process) of its own (`per-host`), which makes every question
 * from it provably that host's.
 */
export type Sharing = "shared" | "per-host";

/** What mcpx does with a question nobody is around to answer. */
export type ElicitationMode = "ask" | "host" | "auto" | "decline" | "error";

/**
 * What a host's `tools/list` holds: every upstream tool (`all`), or mcpx's gateway tools
 * (`mcpx__search`, `mcpx__describe`, `mcpx__call`, `mcpx__servers`) and the pinned tools.
 */
export type Expose = "all" | "discovery";

/** A root as `roots/list` answers it. */
export interface Root {
  uri: string;
  name?: string;
}

/**
 * Which of a server's tools hosts see, by the server's own tool names: only those in `allow`
 * (when given), and none in `deny`. Absent: every tool.
 */
export interface ToolFilter {
  allow?: string[];
  deny?: string[];
}

/**
 * How mcpx signs in to an HTTP server that requires OAuth (`oauth` of a server entry, the key
 * Claude Code uses). Everything is optional: with none of it, mcpx discovers the authorization
 * server on the first 401 and registers itself (a Client ID Metadata Document when given,
 * else RFC 7591 dynamic registration).
 */
export interface OAuthConfig {
  /** A client pre-registered with the authorization server (preferred over any registration). */
  clientId?: string;
  clientSecret?: string;
  /** The scopes to ask for; absent: those the server's challenge or metadata names. */
  scopes?: string[];
  /**
   * `authorization_code`: a person signs in. Without a person: `client_credentials` (machine to
   * machine), `enterprise_managed` (the person's enterprise IdP vouches for them, SEP-990: `idp`),
   * `workload_identity` (the workload's own JWT, SEP-1933: `assertionFile`).
   */
  grantType: OAuthGrant;
  /** For `client_credentials` with `private_key_jwt`: a PEM private key (absolute path). */
  privateKeyFile?: string;
  /** The JWS algorithm of that key's assertions (default RS256). */
  signingAlgorithm?: string;
  /** An HTTPS URL whose document describes mcpx as a client (a Client ID Metadata Document). */
  clientMetadataUrl?: string;
  /** The loopback port of the redirect for sign-ins outside `mcpx serve --http`; absent: any free one. */
  callbackPort?: number;
  /** For `workload_identity`: a file holding the workload's JWT (absolute; read at each token request, as such tokens rotate). */
  assertionFile?: string;
  /** For `enterprise_managed`: the enterprise identity provider. */
  idp?: EnterpriseIdpConfig;
}

export type OAuthGrant = "authorization_code" | "client_credentials" | "enterprise_managed" | "workload_identity";

/**
 * The enterprise IdP of `enterprise_managed` sign-in (SEP-990): mcpx exchanges the person's ID
 * token there (RFC 8693) for an identity assertion grant (ID-JAG) for the server's authorization
 * server, and that for an access token (RFC 7523 jwt-bearer).
 */
export interface EnterpriseIdpConfig {
  /** The IdP's token endpoint; absent: discovered from `issuer`. */
  tokenEndpoint?: string;
  issuer?: string;
  /** mcpx as a client of the IdP. */
  clientId: string;
  clientSecret?: string;
  /** A file holding the person's ID token from the IdP (absolute; read at each exchange, as it is renewed). */
  idTokenFile: string;
}

/** One upstream MCP server (an entry of `mcpServers`). */
export interface ServerConfig {
  name: string;
  /** `stdio` when the entry has `command`, `http` when it has `url`. */
  kind: "stdio" | "http";
  command?: string;
  args: string[];
  /** Only the variables the config sets; the spawner merges them over the inherited environment. */
  env: Record<string, string>;
  /** Absolute. */
  cwd: string;
  url?: string;
  headers: Record<string, string>;
  transport: TransportChoice;
  protocol: ProtocolChoice;
  /** Expose this server's names unprefixed. */
  passthrough: boolean;
  sharing: Sharing;
  timeoutSeconds: number;
  disabled: boolean;
  /** `/readyz` says mcpx is ready only while this server is (absent: false). */
  required?: boolean;
  /** Overrides of the top-level elicitation settings for this server. */
  elicitation: { ttlSeconds?: number };
  /** What mcpx answers this server's `roots/list` with; absent: the top-level `roots`. */
  roots?: Root[];
  /** The tools hosts may see; absent: all of them. */
  tools?: ToolFilter;
  /** HTTP only: how to sign in when the server requires OAuth; `false`: never try (a 401 is an error). */
  oauth?: OAuthConfig | false;
}

/** The whole configuration, defaults filled in. */
/** A server of a host's file that mcpx does not run, and why (`mcpx servers` lists them). */
export interface LeftOutServer {
  name: string;
  why: string;
  /** The file disables it anyway: nobody needs telling on every command. */
  disabled: boolean;
}

export interface Config {
  /** Absolute path of the file it came from, or `<defaults>`. */
  file: string;
  /** In file order. */
  servers: ServerConfig[];
  /** Servers of a host's file left out (in file order), with why. */
  leftOut?: LeftOutServer[];
  elicitation: {
    ttlSeconds: number;
    mode: ElicitationMode;
    /** Policy rules; their shape belongs to the broker, which validates them. */
    rules: unknown[];
    retentionDays: number;
  };
  /** The default answer to `roots/list`; absent: a per-host connection's host's roots, else none. */
  roots?: Root[];
  /** What hosts' `tools/list` holds (`mcpx serve --expose` overrides it). */
  expose: Expose;
  /** With `expose` "discovery": upstream tools still listed, by `SERVER__TOOL` (the server's own tool name), in this order. */
  pinned: string[];
  /** Calls a person must allow before they run (`approvals`), in order: the first that matches holds the call. */
  approvals: ApprovalRule[];
  /** Named tool surfaces (`profiles`), in file order: `/mcp/<name>` and `mcpx serve --profile <name>` (config/profiles.ts). */
  profiles: Profile[];
  http: {
    host: string;
    port: number;
    allowedOrigins: string[];
    allowedHosts: string[];
    /** A client's request headers must arrive within this (else 408 and the connection closes). */
    headersTimeoutSeconds: number;
    /** ...and its body within this after them. */
    bodyTimeoutSeconds: number;
    /**
     * The host credential (at most one of `token` and `tokenFile`, absolute); absent:
     * `$MCPX_HTTP_TOKEN`, else none. With `issuer`, hosts are identities too (host/identity.ts).
     */
    auth?: HttpAuth;
  };
  /** One of several instances on a shared store (config/cluster.ts); absent: this instance alone. */
  cluster?: {
    /** Proves a request handed on between instances came from one of them. */
    secret: string;
    /** Where the other instances reach this one (an origin); absent: the address it listens on. */
    advertise?: string;
    /** Where hosts and people reach the instances (the balancer's origin), for the page's links. */
    publicUrl?: string;
  };
  /**
   * Where the broker keeps questions, answers, calls, tasks and the audit trail: absent, the
   * state directory's SQLite file (one machine); `url` (redis:// or rediss://), a Redis or
   * Valkey server several instances share.
   */
  store?: { url: string };
  /** The background `mcpx daemon` that commands needing live servers use. */
  daemon: {
    /** It exits after this long with no request from a command, no host session and no call in flight. */
    idleMinutes: number;
  };
  /** Scripts (`mcpx run`, `mcpx exec`, `mcpx__exec`): what one run may use before it is ended. */
  scripts: {
    memoryMb: number;
    timeoutSeconds: number;
    /** Printed output kept per run (stdout-like and stderr-like each). */
    outputKb: number;
    maxCalls: number;
  };
  limits: {
    /** The largest message mcpx reads from a host. */
    maxMessageBytes: number;
    /** The largest message mcpx reads from an upstream (catalogues and results can be far larger than requests). */
    maxUpstreamMessageBytes: number;
    requestTimeoutSeconds: number;
    startupTimeoutSeconds: number;
    /** Questions one upstream connection may have waiting at once; beyond it a question is answered cancel. */
    maxPendingQuestionsPerServer: number;
    /** Host sessions `serve --http` keeps at once; an `initialize` beyond them gets 503. */
    maxSessions: number;
    /** An HTTP host session with no request (and no open GET stream) this long is ended. */
    sessionIdleSeconds: number;
    /** Tools taken from one upstream; the rest are left out and reported. */
    maxToolsPerServer: number;
    /** `input_required` rounds one call may take, with a 2026-07-28 upstream or a 2026-07-28 host; beyond them the call ends. */
    maxInputRounds: number;
    /** Calls one 2026-07-28 host may leave waiting for its retry after input_required; a call beyond them fails. */
    maxWaitingRoundsPerHost: number;
    /** How long mcpx holds a 2026-07-28 host's call for its retry after input_required (at most elicitation.ttlSeconds). */
    inputRoundSeconds: number;
  };
}

/** One `approvals` rule (config/approvals.ts). */
export interface ApprovalRule {
  index: number;
  match: {
    /** Globs. */
    server?: string;
    tool?: string;
    /** Tool annotation hints, read with the spec's defaults for the ones a tool leaves out. */
    annotations?: Record<string, boolean>;
    /** Argument name to value: a string is a glob for a string argument, anything else compared as JSON. */
    arguments?: Record<string, unknown>;
  };
  /** How long the person has (default: the question ttl). */
  ttlSeconds?: number;
  /** The person may allow this tool for the rest of the host's session. */
  allowForSession: boolean;
  reason?: string;
}

/**
 * One `profiles` entry: a smaller tool surface for some hosts. Its servers and tools are a
 * subset of what the config shows; its tools may be renamed, described anew, and have
 * arguments fixed (the host never sees them and cannot change them).
 */
export interface Profile {
  name: string;
  /** The servers it serves (their tools, prompts and resources), by name or glob; absent: those its `tools.allow` names, else every server. */
  servers: string[];
  /** Which tools, as `SERVER__TOOL` globs on the server's own tool name; absent: every tool of its servers. */
  tools?: ToolFilter;
  /** How it presents tools, the first entry whose `tool` (a `SERVER__TOOL` glob) matches. */
  overrides: ToolOverride[];
  /** Absent: the top-level `expose`. */
  expose?: Expose;
  /** With `expose` "discovery": as the top-level `pinned`; absent: those of the top-level `pinned` it serves. */
  pinned?: string[];
}

/** How a profile presents one tool (or, without `name`, every tool its glob matches). */
export interface ToolOverride {
  /** `SERVER__TOOL`, the server's own tool name; a glob unless it renames. */
  tool: string;
  /** The name hosts call it by in the profile, exactly (no server prefix added). */
  name?: string;
  description?: string;
  /** Arguments the profile fixes: left out of the schema hosts see, always sent with these values. */
  arguments?: Record<string, unknown>;
}
