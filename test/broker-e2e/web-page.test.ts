/**
 * Issue 3's "done when", through the web page: `mcpx serve --http` serves a host without
 * elicitation; the upstream's form question waits in the store; a person answers it on the
 * page that same `mcpx serve` prints (headless Chromium); the host's tool call completes with
 * that answer.
 */
import { haveChromium, launchChromium } from "../helpers/browser.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { askingStdio, httpHost, toolJson, type RecordingHost } from "../relay/support.js";
import { brokerConfig } from "./support.js";

const chromiumHere = haveChromium("test/broker-e2e/web-page.test.ts");

(chromiumHere ? describe : describe.skip)("a question answered on the page of mcpx serve --http", () => {
  let mcpx: RunningMcpx & { url: URL };
  let host: RecordingHost;
  let browser: Browser;

  beforeAll(async () => {
    mcpx = await startMcpxHttp(brokerConfig({ ask: askingStdio() }, { ttlSeconds: 60 }));
    host = await httpHost(mcpx.url, { capabilities: {} });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await mcpx?.close();
  });

  it("completes the host's tool call with what the person typed", async () => {
    const call = host.client.callTool({ name: "ask__ask_form", arguments: { message: "Who is booking?" } });

    await mcpx.waitForLog(/questions at (\S+)/);
    const pageUrl = /questions at (\S+)/.exec(mcpx.stderr())![1]!;
    // The link's one-time code rides in the fragment, which the browser never sends to a server.
    expect(new URL(pageUrl).hash).toMatch(/^#code=/);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(pageUrl);
    const card = page.locator("article", { has: page.locator("h2", { hasText: "Who is booking?" }) });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator(".meta").textContent()).toContain("ask");
    // Signed in without a cookie, and the code has left the address bar.
    expect(await context.cookies()).toEqual([]);
    expect(new URL(page.url()).hash).toBe("");

    await card.getByLabel("Name").fill("Ada");
    await card.getByLabel("Age").fill("36");
    await card.getByRole("button", { name: "Accept" }).click();

    expect(toolJson(await call)).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
    // The host never saw a question: it did not declare elicitation.
    expect(host.requests("elicitation/create")).toEqual([]);
    await card.waitFor({ state: "detached", timeout: 10_000 });
  });
});
