/**
 * The page's credential stays with its instance (issue 6, item 5's sibling): `mcpx ui` prints
 * a link; after the page is open in headless Chromium, nothing the browser sends to another
 * server on 127.0.0.1 (another port) carries any credential of this mcpx (browsers send
 * cookies for a host to every port of it), and the link's code cannot be used twice.
 */
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askForm, openBroker, startUi, tempStateDir, type RunningUi } from "../helpers/questions-api.js";

const chromiumHere = haveChromium("test/api/page-credential.test.ts");

(chromiumHere ? describe : describe.skip)("the page's credential and another local server", () => {
  const stateDir = tempStateDir();
  let ui: RunningUi;
  let browser: Browser;
  let neighbour: Server;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    ui = await startUi(stateDir);
    // Another local server the person happens to visit: it records everything the browser sends it.
    neighbour = createServer((request, response) => {
      seen.push({ url: request.url ?? "", headers: request.headers });
      if (request.url === "/") {
        response.writeHead(200, { "content-type": "text/html" });
        response.end('<!doctype html><title>neighbour</title><img src="/pixel.gif"><script>fetch("/probe", { credentials: "include" });</script>');
      } else response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    await new Promise<void>((resolve) => neighbour.listen(0, "127.0.0.1", resolve));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    neighbour?.closeAllConnections();
    await new Promise<void>((resolve) => (neighbour ? neighbour.close(() => resolve()) : resolve()));
  });

  it("sends nothing of this mcpx's to a server on another port, and the link's code works once", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(ui.link.href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
    // It works: a question opened elsewhere arrives and is answered as the web's.
    const other = openBroker(stateDir);
    try {
      const asked = await askForm(other.broker, "Still working?", { type: "object", properties: { ok: { type: "boolean", title: "OK" } } });
      const card = page.locator(`article[data-id="${asked.id}"]`);
      await card.waitFor({ timeout: 10_000 });
      const waited = other.broker.wait(asked.id);
      await card.locator('button[data-action="decline"]').click();
      expect((await waited).answer).toMatchObject({ action: "decline", by: "web" });
    } finally {
      await other.close();
    }
    // The code is out of the address bar; the tab's credential lives in this origin's sessionStorage.
    expect(page.url()).toBe(ui.base.href);
    const inTab = await page.evaluate(() => Object.values(sessionStorage));
    const secrets = [ui.token, ui.link.hash.replace(/^#code=/, ""), ...inTab].filter((secret) => secret.length >= 16);

    // The person visits the neighbour: in a new tab, then in the page's own tab.
    const { port } = neighbour.address() as AddressInfo;
    const elsewhere = `http://127.0.0.1:${port}/`;
    const tab = await context.newPage();
    await tab.goto(elsewhere);
    await tab.waitForFunction(() => performance.getEntriesByType("resource").length >= 2, undefined, { timeout: 10_000 });
    expect(await tab.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    await page.goto(`${elsewhere}?from=the-page`);
    await page.waitForLoadState("load");

    expect(seen.map((hit) => hit.url)).toEqual(expect.arrayContaining(["/", "/pixel.gif", "/probe", "/?from=the-page"]));
    for (const hit of seen) {
      expect(hit.headers.cookie, `a cookie went to ${hit.url}`).toBeUndefined();
      expect(hit.headers.authorization).toBeUndefined();
      const sent = JSON.stringify(hit.headers);
      for (const secret of secrets) expect(sent, `a credential went to ${hit.url}`).not.toContain(secret);
    }
    expect(await context.cookies()).toEqual([]);
    // The API token, the code and the tab's credential were all looked for.
    expect(secrets).toHaveLength(3);

    // The printed link again, in a fresh browser: the code is spent, so the page signs nothing in.
    const again = await browser.newContext();
    const replay = await again.newPage();
    await replay.goto(ui.link.href);
    await replay.locator("#signin").waitFor({ state: "visible", timeout: 10_000 });
    expect(await replay.locator("#signin").textContent()).toContain("already used");
    expect(await replay.locator("#link-command").textContent()).toBe(`mcpx link --port ${ui.base.port}`);
    expect(await replay.locator("article").count()).toBe(0);
    await again.close();
    // And by hand, as a replaying server would try it.
    const code = ui.link.hash.replace(/^#code=/, "");
    const traded = await fetch(new URL("/v1/page-session", ui.base), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
    });
    expect(traded.status).toBe(401);
    await context.close();
  });

  it("keeps a tab signed in across a reload, and a fresh link from `mcpx link` opens another", async () => {
    const { runMcpx } = await import("../helpers/upstreams.js");
    const minted = await runMcpx(["link", "--port", ui.base.port], { dir: "", file: "", env: { ...process.env, MCPX_STATE_DIR: stateDir } });
    expect(minted.code).toBe(0);
    const link = new URL(minted.stdout.trim());
    expect(link.origin).toBe(ui.base.origin);
    expect(link.hash).toMatch(/^#code=/);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link.href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
    await page.reload();
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
    // A link for another port is refused by this one.
    const foreign = await runMcpx(["link", "--port", String(Number(ui.base.port) + 1)], {
      dir: "",
      file: "",
      env: { ...process.env, MCPX_STATE_DIR: stateDir },
    });
    const code = new URL(foreign.stdout.trim()).hash.replace(/^#code=/, "");
    const traded = await fetch(new URL("/v1/page-session", ui.base), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
    });
    expect(traded.status).toBe(401);
    await context.close();
  });
});
