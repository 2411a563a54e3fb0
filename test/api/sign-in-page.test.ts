/**
 * Signing in from the page, in headless Chromium: the sign-in question of a server that needs
 * a token shows on the page of `mcpx serve --http` with its full URL; the person opens it,
 * signs in at a real authorization server (oidc-provider) in that tab, and is sent back
 * to mcpx's own `/oauth/callback`, which says they are signed in; the server comes up and a
 * host's call to it completes.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { servedSignInFixture } from "../helpers/sign-in-fixture.js";
import { httpHost } from "../relay/support.js";

const chromiumHere = haveChromium("test/api/sign-in-page.test.ts");

(chromiumHere ? describe : describe.skip)("signing in from the page", () => {
  const fixture = servedSignInFixture({ protect: "calls" });
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the sign-in with its URL; opening it signs in, and the call completes", async () => {
    // A host that cannot take URL questions: its call's sign-in waits on the page.
    const host = await httpHost(fixture.mcpx.url, { capabilities: {} });
    try {
      const call = host.client.callTool({ name: "crm__whoami", arguments: {} });
      await fixture.mcpx.waitForLog(/questions at (\S+)/);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(/questions at (\S+)/.exec(fixture.mcpx.stderr())![1]!);
      const card = page.locator("article", { has: page.locator("h2", { hasText: 'Sign in to "crm"' }) });
      await card.waitFor({ timeout: 15_000 });
      const shown = new URL((await card.locator(".url").textContent())!);
      expect(shown.origin).toBe(fixture.as.issuer);
      expect(shown.searchParams.get("resource")).toBe(fixture.upstream.url);
      expect(shown.searchParams.get("redirect_uri")).toBe(new URL("/oauth/callback", fixture.mcpx.url).href);

      // Opening the link is enough: coming back signed in completes the question.
      const opened = context.waitForEvent("page", { timeout: 10_000 });
      await card.locator('button[data-action="open"]').click();
      const tab = await opened;
      // The authorization server logs the person in, asks consent, and sends the tab back to mcpx.
      await tab.waitForURL((url) => url.pathname === "/oauth/callback", { timeout: 15_000 });
      expect(new URL(tab.url()).origin).toBe(fixture.mcpx.url.origin);
      expect(await tab.locator("h1").textContent()).toBe("Signed in");

      const result = (await call) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toMatch(/^alice /);
      await card.waitFor({ state: "detached", timeout: 10_000 });
      await context.close();
    } finally {
      await host.close();
    }
  }, 60_000);
});
