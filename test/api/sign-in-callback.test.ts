/**
 * `mcpx serve --http` takes the authorization server's redirect on its own `/oauth/callback`:
 * the sign-in's redirect_uri is that path on the address it serves, the browser coming back
 * needs no credential (the one-use `state` is the check), an unknown `state` is refused, and the
 * server that waited for the sign-in comes up for hosts.
 */
import { describe, expect, it } from "vitest";
import { servedSignInFixture } from "../helpers/sign-in-fixture.js";
import { httpHost } from "../relay/support.js";
import { elicit, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";

const fixture = servedSignInFixture();

describe("/oauth/callback on mcpx serve --http", () => {
  it("refuses a state it did not issue, and anything but GET", async () => {
    const forged = await fetch(new URL("/oauth/callback?code=abc&state=forged", fixture.mcpx.url));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Sign-in not recognised");
    const posted = await fetch(new URL("/oauth/callback", fixture.mcpx.url), { method: "POST" });
    expect(posted.status).toBe(405);
  });

  it("is the redirect of the sign-in, takes the browser back without a credential, and the server comes up", async () => {
    const question = await waitForQuestion(fixture.config, pendingFrom("crm"), 20_000);
    const url = new URL(question.url!);
    expect(url.searchParams.get("redirect_uri")).toBe(new URL("/oauth/callback", fixture.mcpx.url).href);
    expect((await elicit(fixture.config, "accept", question.id)).code).toBe(0);

    const back = await fixture.as.authorize(url);
    expect(back.origin + back.pathname).toBe(new URL("/oauth/callback", fixture.mcpx.url).href);
    const page = await fetch(back); // a browser: no Authorization header, no API token
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("mcpx has your sign-in to crm");
    // The same redirect again is not a second sign-in.
    expect((await fetch(back)).status).toBe(400);

    const host = await httpHost(fixture.mcpx.url);
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
