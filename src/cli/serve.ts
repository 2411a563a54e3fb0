/** `mcpx serve`: the gateway, for one host on stdio or many over HTTP, with the question broker. */
import type { Config, Expose } from "../config/types.js";
import { DEFAULTS_FILE } from "../config/load.js";
import { Gateway } from "../host/gateway.js";
import { HttpHost } from "../host/http-host.js";
import { serveStdio } from "../host/stdio-host.js";
import { createLogger } from "../util/log.js";
import { createApiRoutes } from "../api/routes.js";
import { Broker } from "../broker/broker.js";
import { stateDir } from "../broker/state-dir.js";
import { openCommandStore } from "./open-store.js";
import { TOKEN_FILE } from "../broker/state-dir.js";
import { pageLink } from "../api/page-codes.js";
import { ClusterRouting } from "../cluster/routing.js";
import { CredentialError, isLoopbackHost, loadHostCredential, requireCredentialFor, TOKEN_ENV, type HostCredential } from "../host/host-credential.js";
import type { IdentityIssuer } from "../host/identity-issuer.js";
import type { Logger } from "../util/log.js";
import { CliError, Exit } from "./exit.js";
import { accessLines, reachable } from "./link.js";
import { startupSummary } from "./startup-summary.js";
import { cleartextWarning } from "./cleartext.js";
import { settled } from "./settled.js";
import { DaemonSide } from "./daemon-serve.js";
import { ServedCallbacks } from "../api/oauth-callback.js";
import { healthRoute } from "../api/health.js";
import { metricsRoute } from "../api/metrics.js";
import { loadTelemetry } from "../telemetry/load.js";
import { NO_TELEMETRY } from "../telemetry/telemetry.js";
import { processOAuth } from "../upstream/oauth/process-context.js";
import { watchConfig } from "./config-watch.js";
import { configFor } from "./context.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: number;
  /** Overrides the config's `expose` (and, with `profile`, the profile's). */
  expose?: Expose;
  /** Serve this profile (config `profiles`) alone: on stdio, or as `/mcp` over HTTP. */
  profile?: string;
  /** `mcpx daemon`: serve commands for this config (on 127.0.0.1, any port) and exit when idle. */
  daemon?: boolean;
  /** The config's warnings, for the daemon to say to each command that uses it. */
  warnings?: readonly string[];
}

/**
 * Loopback binds, where commands on this machine look for a serving mcpx (127.0.0.1). A wider
 * bind does not serve them: its `/v1/daemon` routes would cross the network.
 */
const COMMANDS_REACH = new Set(["127.0.0.1", "localhost"]);

export async function serve(fromFile: Config, options: ServeOptions): Promise<void> {
  const config = servedConfig(fromFile, options);
  // Before anything is opened or bound: a bind beyond loopback without a credential never listens.
  const bindTo = options.host ?? config.http.host;
  const log = createLogger();
  const issuer = options.http ? await serveIssuer(config, bindTo, log) : undefined;
  const credential = options.http ? serveCredential(config, bindTo, issuer !== undefined) : undefined;
  const dir = stateDir();
  // A store that cannot be used is a clear error now, not a crash in the middle of a call.
  const store = await openCommandStore(config, dir);
  const broker = new Broker(store, log);
  await broker.start(config.elicitation.retentionDays);
  // Serving HTTP, sign-ins come back to its own /oauth/callback.
  let callbacks: ServedCallbacks | undefined;
  const oauth = options.http
    ? processOAuth(dir, config.servers, config.elicitation.ttlSeconds * 1000, (pending) => (callbacks = new ServedCallbacks(pending)))
    : undefined;
  // Metrics and traces: off unless OTEL_* asks, but for /metrics of serve --http (the daemon's commands need none).
  const telemetry = await loadTelemetry({ prometheus: options.http === true && !options.daemon, log });
  const cluster = options.http && !options.daemon ? clusterRouting(config, broker, bindTo) : undefined;
  // Several instances share the schema cache through the store (Redis): what another read is here before anything starts.
  if (store.schemas) await (await import("./shared-schemas.js")).pullAtStart(config.servers, dir, store.schemas, log);
  const gateway = new Gateway(config, log, {
    broker,
    servesPage: options.http === true,
    schemaCache: dir,
    ...(store.schemas ? { sharedSchemas: store.schemas } : {}),
    telemetry,
    ...(oauth ? { oauth } : {}),
    ...(cluster ? { cluster } : {}),
  });
  // The config file is watched: editing it applies at once (hot reload; a config of defaults has no file).
  const watching =
    config.file === DEFAULTS_FILE
      ? undefined
      : watchConfig(
          config.file,
          async () => {
            // A file without the served profile does not load here: the profile in force stays.
            return servedConfig(await configFor(config.file), options);
          },
          (next) => gateway.reload(next),
          log,
        );
  const shutdown = async (): Promise<void> => {
    watching?.close();
    await gateway.stop();
    await telemetry.shutdown();
    await broker.stop();
    await store.close();
  };
  // Once every upstream is up or down (a restart in flight included): which are up, and why the others are not.
  const summarise = (): void => void settled(gateway).then(() => process.stderr.write(startupSummary(gateway.upstreams, config.leftOut)));
  if (!options.http) {
    const stop = onSignal(shutdown);
    summarise();
    await serveStdio(gateway, process.stdin, process.stdout, options.profile);
    stop();
    await shutdown();
    // An exporter still retrying a collector that is down would hold the process for its whole
    // timeout; shutdown waited as long as the last export should take.
    if (telemetry !== NO_TELEMETRY) setTimeout(() => process.exit(0), 0).unref();
    return;
  }
  const token = await store.secrets.get(TOKEN_FILE);
  const tokenWhere = store.secrets.whereIs(TOKEN_FILE);
  // Behind a balancer the page's address is the cluster's public one (never the daemon's: it serves no cluster).
  const publicUrl = cluster && config.cluster?.publicUrl ? new URL("/", config.cluster.publicUrl) : undefined;
  const api = createApiRoutes({
    broker,
    token,
    log,
    ...(credential ? { hostCredential: credential } : {}),
    ...(issuer ? { issuer } : {}),
    ...(publicUrl ? { publicUrl } : {}),
  });
  const health = healthRoute({
    storeProblem: () => store.unwritable(),
    requiredNotReady: () => gateway.upstreams.filter((upstream) => upstream.config.required && upstream.state !== "ready").map((upstream) => upstream.name),
  });
  const metrics = metricsRoute({
    serve: telemetry.prometheus,
    apiToken: token,
    tokenWhere,
    ...(credential ? { hostCredential: credential } : {}),
  });
  const bind = options.host ?? config.http.host;
  // Commands use this process for their calls when they can reach it (a daemon always can).
  let stopping: ((why: string) => void) | undefined;
  const side =
    options.daemon || COMMANDS_REACH.has(bind)
      ? new DaemonSide(gateway, broker, {
          kind: options.daemon ? "daemon" : "serve",
          stateDir: dir,
          warnings: options.warnings ?? [],
          stop: (why) => stopping?.(why),
        })
      : undefined;
  const host = new HttpHost(gateway, {
    host: bind,
    port: options.port ?? config.http.port,
    allowedOrigins: config.http.allowedOrigins,
    allowedHosts: publicHosts(config),
    ...(credential ? { credential } : {}),
    ...(issuer ? { issuer } : {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    extraRoutes: async (request, response, url) =>
      (await health(request, response, url)) ||
      (await metrics(request, response, url)) ||
      (await callbacks?.route(request, response, url)) ||
      (side && (await side.routes(request, response, url))) ||
      api(request, response, url),
  });
  const url = await host.listen().catch(async (error: NodeJS.ErrnoException) => {
    await shutdown();
    const where = `${options.host ?? config.http.host}:${options.port ?? config.http.port}`;
    if (error.code === "EADDRINUSE") {
      throw new CliError(`cannot listen on ${where}: it is already in use (another mcpx serve?); choose another port with --port`);
    }
    throw new CliError(`cannot listen on ${where}: ${error.message}`);
  });
  side?.announce(host, Number(url.port));
  // The other instances hand this one the requests it holds the sessions and calls of, here.
  if (cluster) store.liveness.advertise(broker.instance, config.cluster?.advertise ?? url.origin);
  callbacks?.bound(reachable(url));
  // One write: a reader that saw the first line has the others too.
  const daemonLine = options.daemon ? `mcpx: daemon for ${config.file} (pid ${process.pid}); it exits after ${config.daemon.idleMinutes} idle minutes\n` : "";
  process.stderr.write(
    `mcpx: serving MCP at ${url.href}\n${daemonLine}${identityLine(issuer)}${accessLines(pageLink(token, publicUrl ?? reachable(url)), credential, tokenWhere)}${cleartextWarning(bind)}`,
  );
  summarise();
  await new Promise<void>((resolve) => {
    const stop = async (why: string): Promise<void> => {
      log.info("stopping", { why });
      side?.close(`the mcpx ${options.daemon ? "daemon" : "serving it"} stopped: ${why}`);
      await host.close();
      api.close();
      await shutdown();
      resolve();
    };
    const stopOnSignal = onSignal(() => stop("signal"));
    stopping = (why) => {
      stopping = undefined; // once: an idle exit and a stop request may meet
      stopOnSignal();
      void stop(why).finally(() => process.exit(0));
    };
  });
}

/**
 * The config as this process serves it: `--expose` over the file's (and over the served
 * profile's); with `--profile`, a file that has no such profile is refused.
 */
function servedConfig(config: Config, options: Pick<ServeOptions, "expose" | "profile">): Config {
  const { expose, profile } = options;
  if (profile !== undefined && !config.profiles.some((entry) => entry.name === profile)) {
    const known = config.profiles.map((entry) => entry.name);
    throw new CliError(
      `${config.file} has no profile "${profile}"${known.length ? ` (it has ${known.map((name) => `"${name}"`).join(", ")})` : ' (add it under "profiles")'}`,
      Exit.Usage,
    );
  }
  if (!expose) return config;
  const profiles = config.profiles.map((entry) => (entry.name === profile ? { ...entry, expose } : entry));
  return { ...config, expose, profiles };
}

/**
 * Hosts with identities (`http.auth.issuer`); beyond loopback the audience must be said: the URL
 * hosts reach mcpx at. Its module (jose) is loaded only then.
 */
async function serveIssuer(config: Config, host: string, log: Logger): Promise<IdentityIssuer | undefined> {
  const auth = config.http.auth;
  if (!auth?.issuer) return undefined;
  if (auth.audience === undefined && !isLoopbackHost(host)) {
    throw new CliError(
      `serving on ${host} with identities needs http.auth.audience: the URL of /mcp as hosts reach it (e.g. "https://mcpx.example/mcp"), which their tokens must be for`,
      Exit.Usage,
    );
  }
  const { IdentityIssuer } = await import("../host/identity-issuer.js");
  return new IdentityIssuer(
    {
      issuer: auth.issuer,
      ...(auth.audience ? { audience: auth.audience } : {}),
      ...(auth.jwksUri ? { jwksUri: auth.jwksUri } : {}),
      ...(auth.scopes ? { scopes: auth.scopes } : {}),
    },
    log,
  );
}

function identityLine(issuer: IdentityIssuer | undefined): string {
  return issuer ? `mcpx: hosts sign in with ${issuer.issuer}: access tokens for ${issuer.resource} (metadata at ${issuer.metadataUrl})\n` : "";
}

/**
 * The Host names this server answers to: the config's, and the cluster's public address (the
 * balancer's), which is the Host of every request a balancer passes on unchanged.
 */
function publicHosts(config: Config): string[] {
  const publicUrl = config.cluster?.publicUrl;
  return publicUrl === undefined ? config.http.allowedHosts : [...config.http.allowedHosts, new URL(publicUrl).host];
}

/** @param identities an issuer is configured: it stands for a credential beyond loopback. */
function serveCredential(config: Config, host: string, identities: boolean): HostCredential | undefined {
  try {
    const credential = loadHostCredential(config.http.auth);
    if (identities) return credential;
    const where = config.file === DEFAULTS_FILE ? "a config file" : config.file;
    requireCredentialFor(
      host,
      credential,
      `http.auth.tokenFile (a file only you can read) or http.auth.token (e.g. "\${MY_TOKEN}") in ${where}, or the environment variable ${TOKEN_ENV}`,
    );
    return credential;
  } catch (error) {
    if (error instanceof CredentialError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
}

function onSignal(handler: () => Promise<void>): () => void {
  let done = false;
  const listener = (): void => {
    if (done) return;
    done = true;
    void handler().finally(() => process.exit(0));
  };
  process.once("SIGINT", listener);
  process.once("SIGTERM", listener);
  return () => {
    process.off("SIGINT", listener);
    process.off("SIGTERM", listener);
  };
}

/**
 * One of a cluster's instances (config "cluster"): ids that name it, and hops to the others at
 * the addresses they advertised in the store. One bound to every interface must say where the
 * others reach it: 0.0.0.0 is nobody's address.
 */
function clusterRouting(config: Config, broker: Broker, bind: string): ClusterRouting | undefined {
  if (!config.cluster) return undefined;
  if (!config.cluster.advertise && (bind === "0.0.0.0" || bind === "::")) {
    throw new CliError(`${config.file}: cluster.advertise is needed when serving on ${bind}: the address the other instances reach this one at`, Exit.Usage);
  }
  const { liveness } = broker.store;
  return new ClusterRouting(broker.instance, config.cluster.secret, {
    addressOf: async (instance) => {
      const address = await liveness.addressOf(instance);
      return address === undefined ? undefined : new URL(address);
    },
  });
}
