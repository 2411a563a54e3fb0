/**
 * Issue 16's "done when", for two people on one `mcpx serve --http` with identities: the
 * operator signs in once from the CLI (so mcpx can list the server's tools), then alice calls
 * one of its tools from her host and is asked inline, with the full URL, to sign in herself;
 * she does and the call completes as alice. Bob, on his own host, is asked to sign in
 * separately and his calls are his. Alice's next call asks nothing; neither sees the other's
 * sign-in question; no token is ever shown. The upstream refuses even the handshake without a
 * token, so each person's sign-in is raised when their connection starts, before any call is
 * there to carry it: it reaches them through the call that waits for it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";
import { startProtectedUpstream, type ProtectedUpstream } from "../helpers/protected-upstream.js";
import { elicit, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";
import { runMcpx } from "../helpers/upstreams.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const SECRET = "client-secret-0123456789abcdef";

/** The identity provider of the hosts (client credentials), apart from the upstream's authorization server. */
let op: RunningAuthorizationServer;
let as: RunningAuthorizationServer;
let upstream: ProtectedUpstream;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
const closers: Array<() => Promise<void>> = [];

interface Person {
  client: Client;
  asked: Array<{ params: Record<string, unknown> }>;
}

/** A person's SDK 1.x host carrying their access token; it takes URL questions and signs in as `login` at the URL it is given. */
async function personHost(clientId: string, login: string): Promise<Person> {
  const token = await op.clientCredentialsToken({ clientId, clientSecret: SECRET, resource: mcpx.url.href });
  const client = new Client({ name: `${login}-host`, version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const asked: Person["asked"] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const frame = { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: request.params as Record<string, unknown> };
    expectValidToClient("2025-11-25", frame);
    asked.push(frame);
    // The person opens the URL: it finishes after the consent is answered, as in a browser.
    setImmediate(() => void as.signIn(String(frame.params.url), { login }));
    return { action: "accept" };
  });
  await client.connect(new StreamableHTTPClientTransport(mcpx.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  closers.push(() => client.close());
  return { client, asked };
}

function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? "").join("\n");
}

beforeAll(async () => {
  op = await startAuthorizationServer({
    clients: ["alice", "bob"].map((client_id) => ({
      client_id,
      client_secret: SECRET,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
    })),
  });
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  config = writeConfig({
    mcpServers: { crm: { url: upstream.url } },
    elicitation: { ttlSeconds: 60 },
    limits: { startupTimeoutSeconds: 60 },
    http: { auth: { issuer: op.issuer, scopes: ["mcp"], token: "operator-0123456789abcdef0123456789" } },
  });
  mcpx = await startMcpxHttp(config);
  // The operator signs in from the CLI, as carol: mcpx can then list crm's tools.
  const question = await waitForQuestion(config, pendingFrom("crm"), 20_000);
  expect((await elicit(config, "accept", question.id)).code).toBe(0);
  expect((await as.signIn(question.url!, { login: "carol" })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await mcpx?.close();
  await upstream?.close();
  await as?.close();
  await op?.close();
});

describe("two people signing in to one server through one mcpx", () => {
  it("asks each inline when their call needs it; each call is theirs; the next asks nothing; no token is shown", async () => {
    const alice = await personHost("alice", "alice");
    // The operator's sign-in started the shared connection, whose catalogue every host is listed.
    for (let tries = 0; !(await alice.client.listTools()).tools.some((tool) => tool.name === "crm__whoami"); tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(textOf(await alice.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^alice\b/);
    expect(alice.asked).toHaveLength(1);
    const params = alice.asked[0]!.params;
    expect(params.mode).toBe("url");
    expect(String(params.message)).toContain('Sign in to "crm"');
    expect(new URL(String(params.url)).origin).toBe(as.issuer);

    const bob = await personHost("bob", "bob");
    expect(textOf(await bob.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^bob\b/);
    expect(bob.asked).toHaveLength(1);
    expect(bob.asked[0]!.params.elicitationId).not.toBe(params.elicitationId);

    // Each kept their own token: nobody is asked again, and the operator's stays carol's.
    expect(textOf(await alice.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^alice\b/);
    expect(textOf(await bob.client.callTool({ name: "crm__whoami", arguments: {} }))).toMatch(/^bob\b/);
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toHaveLength(1);

    const listed = await runMcpx(["auth", "list", "--json"], config);
    expect(listed.code).toBe(0);
    const entries = JSON.parse(listed.stdout) as Array<{ server: string; identity: string }>;
    expect(entries.filter((entry) => entry.server === "crm")).toHaveLength(3);
    expect(listed.stdout).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT, access or refresh
  }, 60_000);
});
