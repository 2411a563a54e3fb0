/**
 * The page checks a number's min/max before sending, and marks a refused field at its label:
 * headless Chromium, as in page.test.ts.
 */
import { haveChromium, launchChromium } from "../helpers/browser.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLink } from "../../src/api/page-codes.js";
import { startStoreServer, type StoreServer } from "../../src/api/store-server.js";
import { silentLogger } from "../../src/util/log.js";
import { askForm, tempStateDir } from "../helpers/questions-api.js";

const chromiumHere = haveChromium("test/api/page-field-checks.test.ts");

(chromiumHere ? describe : describe.skip)("the page's field checks", () => {
  let server: StoreServer;
  let browser: Browser;
  let page: Page;
  const answersSent: string[] = [];

  beforeAll(async () => {
    server = await startStoreServer({ host: "127.0.0.1", port: 0, stateDir: tempStateDir(), log: silentLogger });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    page.on("request", (request) => {
      if (request.url().endsWith("/answer")) answersSent.push(request.postData() ?? "");
    });
    await page.goto(pageLink(server.token, server.url).href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("flags a number out of range at its label without sending a request", async () => {
    const asked = await askForm(server.broker, "How many?", {
      type: "object",
      properties: { guests: { type: "integer", title: "Guests", minimum: 1, maximum: 12 }, note: { type: "string", title: "Note" } },
      required: ["guests"],
    });
    const form = page.locator(`article[data-id="${asked.id}"]`);
    await form.waitFor({ timeout: 10_000 });
    await form.getByLabel("Guests").fill("40");
    await form.locator('button[data-action="accept"]').click();
    const alert = form.locator('[role="alert"]');
    await alert.waitFor({ state: "visible", timeout: 10_000 });
    expect(await alert.textContent()).toContain("“Guests” must be at most 12");
    const guests = form.locator('[data-field="guests"]');
    expect(await guests.getAttribute("aria-invalid")).toBe("true");
    expect(await guests.locator(".problem").textContent()).toContain("must be at most 12");
    expect(await form.locator('[data-field="note"]').getAttribute("aria-invalid")).toBeNull();
    await form.getByLabel("Guests").fill("2.5");
    await form.locator('button[data-action="accept"]').click();
    await page.waitForFunction(
      (id) => (document.querySelector(`article[data-id="${id}"] [role="alert"]`)?.textContent ?? "").includes("whole number"),
      asked.id,
      { timeout: 10_000 },
    );
    expect(answersSent).toEqual([]);

    await form.getByLabel("Guests").fill("3");
    await form.locator('button[data-action="accept"]').click();
    expect((await server.broker.wait(asked.id)).answer!.content).toStrictEqual({ guests: 3 });
    expect(answersSent).toHaveLength(1);
  });

  it("marks the field the server refused by its label, and clears it once fixed", async () => {
    const asked = await askForm(server.broker, "Contact?", {
      type: "object",
      properties: { name: { type: "string", title: "Name" }, email: { type: "string", title: "Email", format: "email" } },
    });
    const form = page.locator(`article[data-id="${asked.id}"]`);
    await form.waitFor({ timeout: 10_000 });
    await form.getByLabel("Name").fill("Ada");
    await form.getByLabel("Email").fill("not-an-email");
    await form.locator('button[data-action="accept"]').click();
    const email = form.locator('[data-field="email"]');
    await page.waitForFunction(
      (id) => document.querySelector(`article[data-id="${id}"] [data-field="email"]`)?.getAttribute("aria-invalid") === "true",
      asked.id,
      { timeout: 10_000 },
    );
    expect(await email.locator(".problem").textContent()).toContain('field "email"');
    expect(await form.locator('[data-field="name"]').getAttribute("aria-invalid")).toBeNull();
    expect((await server.broker.get(asked.id))!.state).toBe("pending");

    await form.getByLabel("Email").fill("ada@example.org");
    await form.locator('button[data-action="accept"]').click();
    expect((await server.broker.wait(asked.id)).answer!.content).toStrictEqual({ name: "Ada", email: "ada@example.org" });
  });
});
