/**
 * What every sign-in test starts from: a real authorization server, `crm` (an MCP server that
 * takes only its tokens), a config naming crm (sign-in questions wait 60 s), and, for the tests
 * of a served mcpx, `mcpx serve --http` on it. Started once for a file's tests (beforeAll) and
 * closed after them, last started first closed.
 */
import { afterAll, beforeAll } from "vitest";
import { startAuthorizationServer, type RunningAuthorizationServer } from "./authorization-server.js";
import { startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "./mcpx.js";
import { startProtectedUpstream, type ProtectedUpstream, type ProtectedUpstreamOptions } from "./protected-upstream.js";

export interface SignInFixtureOptions {
  /** What crm needs a token for (default "all", the handshake too): ProtectedUpstreamOptions.protect. */
  protect?: ProtectedUpstreamOptions["protect"];
}

export interface SignInFixture {
  as: RunningAuthorizationServer;
  upstream: ProtectedUpstream;
  /** `{ mcpServers: { crm }, elicitation: { ttlSeconds: 60 } }` with a state dir of its own. */
  config: TempConfig;
  /** Another such config (`overrides` replace its top-level keys), for a test that needs a state of its own. */
  freshConfig(overrides?: object): TempConfig;
}

export interface ServedSignInFixture extends SignInFixture {
  /** `mcpx serve --http` on `config`. */
  mcpx: RunningMcpx & { url: URL };
}

/** The fixture of this file's (or describe block's) tests; its fields are there once its beforeAll has run. */
export function signInFixture(options: SignInFixtureOptions = {}): SignInFixture {
  return useFixture(options, false);
}

/** The same with `mcpx serve --http` on the config. */
export function servedSignInFixture(options: SignInFixtureOptions = {}): ServedSignInFixture {
  return useFixture(options, true) as ServedSignInFixture;
}

function useFixture(options: SignInFixtureOptions, serve: boolean): SignInFixture & { mcpx?: RunningMcpx & { url: URL } } {
  const fixture = {} as SignInFixture & { mcpx?: RunningMcpx & { url: URL } };
  fixture.freshConfig = (overrides = {}) => writeConfig({ mcpServers: { crm: { url: fixture.upstream.url } }, elicitation: { ttlSeconds: 60 }, ...overrides });
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const as = await startAuthorizationServer();
    closers.push(() => as.close());
    const upstream = await startProtectedUpstream({ issuer: as.issuer, protect: options.protect });
    closers.push(() => upstream.close());
    fixture.as = as;
    fixture.upstream = upstream;
    fixture.config = fixture.freshConfig();
    if (!serve) return;
    const mcpx = await startMcpxHttp(fixture.config);
    closers.push(() => mcpx.close());
    fixture.mcpx = mcpx;
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return fixture;
}
