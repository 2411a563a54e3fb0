/**
 * `mcpx serve --http` takes the authorization server's redirect on its own `/oauth/callback`:
 * the sign-in's redirect_uri is that path on the address it serves, the browser coming back
 * needs no credential (the one-use `state` is the check), an unknown `state` is refused, and the
 * server that waited for the sign-in comes up for hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer, type RunningAuthorizationServer } from "../helpers/authorization-server.js";
import { startProtectedUpstream, type ProtectedUpstream } from "../helpers/protected-upstream.js";
import { httpHost } from "../relay/support.js";
import { elicit, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";

let as: RunningAuthorizationServer;
let upstream: ProtectedUpstream;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  config = writeConfig({ mcpServers: { crm: { url: upstream.url } }, elicitation: { ttlSeconds: 60 } });
  mcpx = await startMcpxHttp(config);
});
afterAll(async () => {
  await mcpx?.close();
  await upstream?.close();
  await as?.close();
});

describe("/oauth/callback on mcpx serve --http", () => {
  it("refuses a state it did not issue, and anything but GET", async () => {
    const forged = await fetch(new URL("/oauth/callback?code=abc&state=forged", mcpx.url));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Sign-in not recognised");
    const posted = await fetch(new URL("/oauth/callback", mcpx.url), { method: "POST" });
    expect(posted.status).toBe(405);
  });

  it("is the redirect of the sign-in, takes the browser back without a credential, and the server comes up", async () => {
    const question = await waitForQuestion(config, pendingFrom("crm"), 20_000);
    const url = new URL(question.url!);
    expect(url.searchParams.get("redirect_uri")).toBe(new URL("/oauth/callback", mcpx.url).href);
    expect((await elicit(config, "accept", question.id)).code).toBe(0);

    const back = await as.authorize(url);
    expect(back.origin + back.pathname).toBe(new URL("/oauth/callback", mcpx.url).href);
    const page = await fetch(back); // a browser: no Authorization header, no API token
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("mcpx has your sign-in to crm");
    // The same redirect again is not a second sign-in.
    expect((await fetch(back)).status).toBe(400);

    const host = await httpHost(mcpx.url);
    try {
      const deadline = Date.now() + 15_000;
      let names: string[] = [];
      while (!names.includes("crm__whoami") && Date.now() < deadline) {
        names = (await host.client.listTools()).tools.map((tool) => tool.name);
        if (!names.includes("crm__whoami")) await host.waitFor((frame) => frame.method === "notifications/tools/list_changed", 5_000).catch(() => {});
      }
      const result = (await host.client.callTool({ name: "crm__whoami", arguments: {} })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toMatch(/^alice /);
    } finally {
      await host.close();
    }
  }, 60_000);
});
