/**
 * The page's Audit tab in headless Chromium: it reads `GET /v1/audit` with the filters of
 * `mcpx audit` (since, server, tool, session), shows each entry, and renders every value as
 * text (arguments are whatever an agent sent: markup in them stays characters, and no script
 * of theirs runs). It only reads: the tab has no control but its filter, and the route takes no
 * write.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLink } from "../../src/api/page-codes.js";
import { startStoreServer, type StoreServer } from "../../src/api/store-server.js";
import { silentLogger } from "../../src/util/log.js";
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { tempStateDir } from "../helpers/questions-api.js";

const chromiumHere = haveChromium("test/api/page-audit.test.ts");

const HOSTILE = {
  path: '<img src=x onerror="globalThis.pwned=1">',
  content: "</td></tr><script>globalThis.pwned=2</script><tr><td>",
};

(chromiumHere ? describe : describe.skip)("the page's Audit tab in headless Chromium", () => {
  const stateDir = tempStateDir();
  let server: StoreServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startStoreServer({ host: "127.0.0.1", port: 0, stateDir, log: silentLogger });
    const audit = server.broker.store.audit;
    const hourAgo = Date.now() - 3_600_000;
    await audit.append(
      {
        kind: "call",
        identity: "local",
        hostSession: "s-old",
        client: "old-host 1.0",
        server: "desk",
        tool: "list_bookings",
        arguments: {},
        outcome: "ok",
        durationMs: 4,
      },
      hourAgo - 60_000,
    );
    await audit.append({
      kind: "call",
      identity: "local",
      hostSession: "s-1",
      client: "claude-code 2.1.0",
      server: "fs",
      tool: "write_file",
      arguments: HOSTILE,
      outcome: "refused",
      durationMs: 2113,
    });
    await audit.append({
      kind: "question",
      identity: "local",
      hostSession: "s-1",
      server: "fs",
      tool: "write_file",
      method: "elicitation/create",
      questionId: "q-1",
      outcome: "decline",
      answeredBy: "web",
    });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(pageLink(server.token, server.url).href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const rows = () => page.locator("#audit-entries tr");
  const filter = async (values: Record<string, string>) => {
    for (const key of ["since", "server", "tool", "session"]) await page.fill(`#audit-filter [name=${key}]`, values[key] ?? "");
    // The click's submit handler says "loading…" at once; the answer replaces it.
    await page.click("#audit-filter button[type=submit]");
    await page.waitForFunction(() => document.getElementById("audit-status")?.textContent !== "loading\u2026");
  };

  it("opens on the tab, shows every entry oldest first, and renders the arguments as text", async () => {
    expect(await page.locator("#audit").isHidden()).toBe(true);
    await page.click("#tab-audit");
    await rows().nth(2).waitFor({ timeout: 10_000 });
    expect(await page.locator("#questions").isHidden()).toBe(true);
    expect(await page.locator("#tab-audit").getAttribute("aria-selected")).toBe("true");
    expect(await rows().count()).toBe(3);
    expect(await page.locator("#audit-status").textContent()).toBe("3 entries, oldest first");

    const call = rows().nth(1);
    expect(await call.locator("td.what").textContent()).toBe("fs.write_file");
    expect(await call.locator("td.detail").textContent()).toBe(JSON.stringify(HOSTILE));
    expect(await call.locator("td.outcome").textContent()).toBe("refused in 2113 ms");
    expect(await call.locator("td.who").textContent()).toBe("session s-1 (claude-code 2.1.0)");
    const question = rows().nth(2);
    expect(await question.locator("td.kind").textContent()).toBe("question");
    expect(await question.locator("td.detail").textContent()).toBe("elicitation/create q-1");
    expect(await question.locator("td.outcome").textContent()).toBe("decline by web");

    // Markup in the arguments stayed characters: no element of theirs, no script of theirs ran.
    expect(await page.locator("#audit img, #audit script").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("#audit-entries td").count()).toBe(18);
  });

  it("filters as mcpx audit does: since, server, tool, session; a filter that is not one says why", async () => {
    await filter({ server: "desk" });
    expect(await rows().count()).toBe(1);
    expect(await rows().first().locator("td.what").textContent()).toBe("desk.list_bookings");
    await filter({ since: "30m" });
    expect(await rows().count()).toBe(2);
    await filter({ session: "s-1", tool: "write_file" });
    expect(await rows().count()).toBe(2);
    await filter({ session: "nobody" });
    expect(await rows().count()).toBe(0);
    expect(await page.locator("#audit-status").textContent()).toBe("No entries match.");
    await filter({ since: "yesterday-ish" });
    expect(await page.locator("#audit-status").textContent()).toContain("since must be a duration such as 30m, 12h or 7d, or an ISO 8601 time");
  });

  it("only reads: its one control is the filter, and the route takes no write", async () => {
    expect(await page.locator("#audit button").count()).toBe(1);
    const credential = await page.evaluate(() => sessionStorage.getItem("mcpx-page-session"));
    for (const method of ["POST", "PUT", "DELETE"]) {
      const status = await page.evaluate(
        async ([verb, token]) => (await fetch("/v1/audit", { method: verb!, headers: { authorization: `Bearer ${token}` } })).status,
        [method, credential],
      );
      expect(status).toBe(405);
    }
    expect(await server.broker.store.audit.list()).toHaveLength(3);
    // And back to the questions.
    await page.click("#tab-questions");
    expect(await page.locator("#audit").isHidden()).toBe(true);
    expect(await page.locator("#questions").isVisible()).toBe(true);
  });
});
