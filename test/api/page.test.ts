/**
 * The web page end to end in headless Chromium (Debian's `chromium`, driven by playwright-core):
 * questions appear live, forms generated from the schema send typed values, a URL is shown
 * but never fetched until the person clicks, and the three actions stay distinct.
 */
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLink } from "../../src/api/page-codes.js";
import { startStoreServer, type StoreServer } from "../../src/api/store-server.js";
import { serverStoppedWaiting } from "../../src/broker/settled-why.js";
import { silentLogger } from "../../src/util/log.js";
import { ask, askForm, askUrl, openBroker, tempStateDir } from "../helpers/questions-api.js";

const chromiumHere = haveChromium("test/api/page.test.ts");

const EVERY_KIND = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 2, maxLength: 40 },
    email: { type: "string", format: "email", title: "Email" },
    guests: { type: "integer", title: "Guests", minimum: 1, maximum: 12, default: 2 },
    budget: { type: "number", title: "Budget", minimum: 0 },
    vegetarian: { type: "boolean", title: "Vegetarian", default: false },
    newsletter: { type: "boolean", title: "Newsletter", default: true },
    size: { type: "string", enum: ["small", "medium", "large"], default: "medium" },
    room: {
      type: "string",
      title: "Room",
      oneOf: [
        { const: "r1", title: "Garden room" },
        { const: "r2", title: "Cellar" },
      ],
    },
    seating: { type: "string", title: "Seating", enum: ["in", "out"], enumNames: ["Inside", "Outside"] },
    extras: { type: "array", title: "Extras", items: { type: "string", enum: ["cake", "wine", "flowers"] }, default: ["wine"] },
    courses: {
      type: "array",
      title: "Courses",
      items: {
        anyOf: [
          { const: "starter", title: "Starter" },
          { const: "main", title: "Main course" },
          { const: "dessert", title: "Dessert" },
        ],
      },
    },
    day: { type: "string", format: "date", title: "Day" },
    note: { type: "string", title: "Note", default: "window seat please" },
  },
  required: ["name", "guests", "room"],
};

(chromiumHere ? describe : describe.skip)("the question page in headless Chromium", () => {
  const stateDir = tempStateDir();
  let server: StoreServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let target: Server;
  const targetHits: string[] = [];

  const card = (id: string) => page.locator(`article[data-id="${id}"]`);
  const settledOf = async (id: string) => {
    const record = await server.broker.wait(id);
    return record;
  };

  beforeAll(async () => {
    server = await startStoreServer({ host: "127.0.0.1", port: 0, stateDir, log: silentLogger });
    // Stands in for the site a URL question points at: it counts every request it gets.
    target = createServer((request, response) => {
      targetHits.push(`${request.headers.host ?? ""}${request.url ?? ""}`);
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>consent</title><p>done</p>");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(pageLink(server.token, server.url).href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
    // The one-time code was traded for this tab's credential and left the address bar; no cookie.
    expect(page.url()).toBe(server.url.href);
    expect(await context.cookies()).toEqual([]);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    target?.closeAllConnections();
    await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
  });

  it("shows a form opened after the page loaded, with every field kind, and sends typed values", async () => {
    await page.evaluate(() => ((globalThis as { loadedOnce?: number }).loadedOnce = 1));
    const message = 'Book a table <img src=x onerror="globalThis.pwned=1">';
    const asked = await askForm(server.broker, message, EVERY_KIND);
    const form = card(asked.id);
    await form.waitFor({ timeout: 10_000 });
    // It arrived live: the page was not reloaded.
    expect(await page.evaluate(() => (globalThis as { loadedOnce?: number }).loadedOnce)).toBe(1);

    // Who asks, for whom, how long; the message as text, never as markup.
    expect(await form.locator("h2").textContent()).toBe(message);
    expect(await page.locator("article img").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await form.locator(".meta").textContent()).toContain("demo");
    expect(await form.locator(".meta").textContent()).toContain("demo__book");
    expect(await form.locator(".audience").textContent()).toContain(asked.audienceReason);
    expect(await form.locator(".time").textContent()).toMatch(/min .* s left/);

    // Input types and constraints from the schema; defaults pre-filled; required fields marked.
    expect(await form.getByLabel("Your name").getAttribute("maxlength")).toBe("40");
    expect(await form.locator('[data-field="name"] .required').count()).toBe(1);
    expect(await form.locator('[data-field="email"] .required').count()).toBe(0);
    expect(await form.getByLabel("Email").getAttribute("type")).toBe("email");
    expect(await form.getByLabel("Guests").getAttribute("step")).toBe("1");
    expect(await form.getByLabel("Guests").getAttribute("max")).toBe("12");
    expect(await form.getByLabel("Guests").inputValue()).toBe("2");
    expect(await form.getByLabel("Budget").getAttribute("step")).toBe("any");
    expect(await form.getByLabel("Day").getAttribute("type")).toBe("date");
    expect(await form.getByLabel("Newsletter").isChecked()).toBe(true);
    expect(await form.getByLabel("Vegetarian").isChecked()).toBe(false);
    expect(await form.getByLabel("size").locator("option:checked").textContent()).toBe("medium");
    expect(await form.getByLabel("wine").isChecked()).toBe(true);
    expect(await form.getByLabel("Note").inputValue()).toBe("window seat please");
    expect(await form.getByLabel("Room").locator("option").allTextContents()).toEqual(["— choose —", "Garden room", "Cellar"]);
    expect(await form.getByLabel("Seating").locator("option").allTextContents()).toEqual(["— choose —", "Inside", "Outside"]);
    expect(await form.locator('[data-field="courses"] label').allTextContents()).toEqual([" Starter", " Main course", " Dessert"]);
    expect(await form.locator("button").allTextContents()).toEqual(["Accept", "Decline", "Cancel"]);
    await page.screenshot({ path: "/tmp/mcpx-page-form.png", fullPage: true });

    await form.getByLabel("Your name").fill("Ada Lovelace");
    await form.getByLabel("Email").fill("ada@example.org");
    await form.getByLabel("Guests").fill("4");
    await form.getByLabel("Budget").fill("99.5");
    await form.getByLabel("Vegetarian").check();
    await form.getByLabel("size").selectOption({ label: "large" });
    await form.getByLabel("Room").selectOption({ label: "Cellar" });
    await form.getByLabel("Seating").selectOption({ label: "Outside" });
    await form.getByLabel("cake").check();
    await form.getByLabel("Starter").check();
    await form.getByLabel("Dessert").check();
    await form.getByLabel("Day").fill("2026-12-24");
    await form.locator('button[data-action="accept"]').click();

    const record = await settledOf(asked.id);
    expect(record.answer).toMatchObject({ action: "accept", by: "web" });
    expect(record.answer!.content).toStrictEqual({
      name: "Ada Lovelace",
      email: "ada@example.org",
      guests: 4,
      budget: 99.5,
      vegetarian: true,
      newsletter: true,
      size: "large",
      room: "r2",
      seating: "out",
      extras: ["cake", "wine"],
      courses: ["starter", "dessert"],
      day: "2026-12-24",
      note: "window seat please",
    });
    await form.waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.locator(`#settled li[data-id="${asked.id}"]`).textContent()).toContain("accepted by web");
  });

  it("keeps a question pending when a required field is empty or the server refuses the answer, and says why", async () => {
    const asked = await askForm(server.broker, "Who are you?", {
      type: "object",
      properties: { name: { type: "string", title: "Name" }, email: { type: "string", title: "Email", format: "email" } },
      required: ["name"],
    });
    const form = card(asked.id);
    await form.waitFor({ timeout: 10_000 });
    const error = form.locator('[role="alert"]');

    await form.locator('button[data-action="accept"]').click();
    await error.waitFor({ state: "visible", timeout: 10_000 });
    expect(await error.textContent()).toContain("“Name”");
    expect(await form.locator('[data-field="name"]').getAttribute("aria-invalid")).toBe("true");
    expect((await server.broker.get(asked.id))!.state).toBe("pending");

    // The browser does not check the email; the server does, and its message names the field.
    await form.getByLabel("Name").fill("Ada");
    await form.getByLabel("Email").fill("not-an-email");
    await form.locator('button[data-action="accept"]').click();
    await page.waitForFunction(
      (id) => {
        const alert = document.querySelector(`article[data-id="${id}"] [role="alert"]`);
        return alert !== null && (alert.textContent ?? "").includes("email");
      },
      asked.id,
      { timeout: 10_000 },
    );
    expect(await error.textContent()).toContain('field "email"');
    expect((await server.broker.get(asked.id))!.state).toBe("pending");

    await form.getByLabel("Email").fill("ada@example.org");
    await form.locator('button[data-action="accept"]').click();
    expect((await settledOf(asked.id)).answer!.content).toStrictEqual({ name: "Ada", email: "ada@example.org" });
  });

  it("sends what `mcpx elicit answer ID name=Ada` sends for an untouched form: defaults, and nothing for fields without one", async () => {
    const asked = await askForm(server.broker, "Booking?", {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        guests: { type: "integer", title: "Guests", default: 2 },
        pets: { type: "boolean", title: "Pets" },
        extras: { type: "array", title: "Extras", items: { type: "string", enum: ["cake", "wine"] } },
      },
      required: ["name", "guests"],
    });
    const form = card(asked.id);
    await form.waitFor({ timeout: 10_000 });
    await form.getByLabel("Name").fill("Ada");
    await form.locator('button[data-action="accept"]').click();
    expect((await settledOf(asked.id)).answer!.content).toStrictEqual({ name: "Ada", guests: 2 });
  });

  it("shows a URL question as text with the host highlighted, warns on punycode, and opens it only on a click", async () => {
    const { port } = target.address() as AddressInfo;
    const address = `http://xn--80ak6aa92e.localhost:${port}/consent?session=abc#top`;
    const asked = await askUrl(server.broker, "Sign in to the calendar", address);
    const question = card(asked.id);
    await question.waitFor({ timeout: 10_000 });

    expect(await question.locator(".url").textContent()).toBe(address);
    expect(await question.locator(".url strong").textContent()).toBe("xn--80ak6aa92e.localhost");
    expect(await question.locator(".warning").allTextContents()).toEqual([expect.stringContaining("punycode")]);
    expect(await question.locator("button").allTextContents()).toEqual(["Open URL", "I consent", "Finished", "Decline", "Cancel"]);
    // Shown, never linked, never loaded.
    expect(await page.locator("a").count()).toBe(0);
    expect(await page.locator(`[href*="${port}"], [src*="${port}"]`).count()).toBe(0);
    await page.screenshot({ path: "/tmp/mcpx-page-url.png", fullPage: true });
    expect(targetHits).toEqual([]);

    const opened = context.waitForEvent("page", { timeout: 10_000 });
    await question.locator('button[data-action="open"]').click();
    const tab = await opened;
    await tab.waitForLoadState("load", { timeout: 10_000 });
    expect(tab.url()).toBe(address);
    // The tab may also ask for its favicon, at its own pace; the page itself asked nothing.
    expect(targetHits.filter((hit) => !hit.endsWith("/favicon.ico"))).toEqual([`xn--80ak6aa92e.localhost:${port}/consent?session=abc`]);
    // Opened without a handle back to the page.
    expect(await tab.evaluate(() => (globalThis as { opener?: unknown }).opener)).toBeNull();
    await tab.close();
    // Opening is not answering.
    expect((await server.broker.get(asked.id))!.state).toBe("pending");

    await question.locator('button[data-action="accept"]').click();
    const record = await settledOf(asked.id);
    expect(record.answer).toMatchObject({ action: "accept", by: "web" });
    expect(record.answer!.content).toBeUndefined();
  });

  it("has a Finished button for a URL question: it records the completion (and the consent) by the page", async () => {
    const asked = await askUrl(server.broker, "Connect your account", "https://example.com/connect");
    const question = card(asked.id);
    await question.waitFor({ timeout: 10_000 });
    await question.locator('button[data-action="done"]').click();
    const record = await settledOf(asked.id);
    expect(record.answer).toMatchObject({ action: "accept", by: "web" });
    expect((await server.broker.get(asked.id))!.completion).toMatchObject({ by: "web" });
  });

  it("warns about a host written in non-ASCII letters, and shows the URL as it was sent", async () => {
    const asked = await askUrl(server.broker, "Pay here", "https://аррӏе.example/pay");
    const question = card(asked.id);
    await question.waitFor({ timeout: 10_000 });
    expect(await question.locator(".url strong").textContent()).toBe("xn--80ak6aa92e.example");
    const warnings = (await question.locator(".warning").allTextContents()).join("\n");
    expect(warnings).toContain("punycode");
    expect(warnings).toContain("non-ASCII");
    expect(await question.locator(".raw").textContent()).toContain("https://аррӏе.example/pay");
    await question.locator('button[data-action="cancel"]').click();
    expect((await settledOf(asked.id)).answer).toMatchObject({ action: "cancel", by: "web" });
  });

  it("keeps Decline and Cancel distinct, also for a question another connection opened", async () => {
    const other = openBroker(stateDir);
    try {
      const schema = { type: "object", properties: { ok: { type: "boolean", title: "OK" } } };
      const first = await askForm(server.broker, "Decline me", schema);
      // Opened through a second connection to the store: it reaches the page by polling.
      const second = await askForm(other.broker, "Cancel me", schema);
      await card(first.id).waitFor({ timeout: 10_000 });
      await card(second.id).waitFor({ timeout: 10_000 });
      const waited = other.broker.wait(second.id);
      await card(first.id).locator('button[data-action="decline"]').click();
      await card(second.id).locator('button[data-action="cancel"]').click();
      expect((await settledOf(first.id)).answer).toMatchObject({ action: "decline", by: "web" });
      expect((await waited).answer).toMatchObject({ action: "cancel", by: "web" });
      expect(await page.locator(`#settled li[data-id="${first.id}"]`).textContent()).toContain("declined by web");
      expect(await page.locator(`#settled li[data-id="${second.id}"]`).textContent()).toContain("cancelled by web");

      // Settled elsewhere: the card leaves the page by itself.
      const third = await askForm(server.broker, "Answered from a terminal", schema);
      await card(third.id).waitFor({ timeout: 10_000 });
      await other.broker.answer(third.id, { action: "decline" }, { by: "cli" });
      await card(third.id).waitFor({ state: "detached", timeout: 10_000 });
      expect(await page.locator(`#settled li[data-id="${third.id}"]`).textContent()).toContain("declined by cli");
    } finally {
      await other.close();
    }
  });

  it("says why a question is over: who answered, that the server stopped waiting, that it expired", async () => {
    const schema = { type: "object", properties: { note: { type: "string" } } };
    const stopped = await askForm(server.broker, "Given up on", schema);
    const expiring = await ask(server.broker, "elicitation/create", { mode: "form", message: "Left too long", requestedSchema: schema }, { ttlSeconds: 1 });
    await card(stopped.id).waitFor({ timeout: 10_000 });
    await server.broker.close(stopped.id, serverStoppedWaiting("Request timed out"));
    await card(stopped.id).waitFor({ state: "detached", timeout: 10_000 });
    await card(expiring.id).waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.locator(`#settled li[data-id="${stopped.id}"]`).textContent()).toBe(
      "Given up on \u2014 closed: the server stopped waiting (Request timed out)",
    );
    expect(await page.locator(`#settled li[data-id="${expiring.id}"]`).textContent()).toBe(
      "Left too long \u2014 expired: nobody answered within 1s (cancel sent)",
    );
  });

  it("says when no host could be proven to have asked, and points at a connection per host", async () => {
    const schema = { type: "object", properties: { note: { type: "string" } } };
    const unproven = await askForm(server.broker, "Whose is this?", schema, { server: "shared-one" });
    const proven = await askForm(server.broker, "Mine", schema, { hostSession: "host-7" });
    await card(unproven.id).waitFor({ timeout: 10_000 });
    await card(proven.id).waitFor({ timeout: 10_000 });
    const note = await card(unproven.id).locator(".unattributed").textContent();
    expect(note).toContain("No single host could be proven to have asked this");
    expect(note).toContain("\u201cshared-one\u201d");
    expect(note).toContain('"sharing": "per-host"');
    expect(await card(proven.id).locator(".unattributed").count()).toBe(0);
    for (const id of [unproven.id, proven.id]) await server.broker.answer(id, { action: "cancel" }, { by: "cli" });
  });

  it("lets a person answer a sampling request with JSON", async () => {
    const params = { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 10 };
    const asked = await ask(server.broker, "sampling/createMessage", params);
    const question = card(asked.id);
    await question.waitFor({ timeout: 10_000 });
    expect(JSON.parse((await question.locator("pre").textContent()) ?? "")).toEqual(params);
    await question.locator("textarea").fill("{ not json");
    await question.locator('button[data-action="accept"]').click();
    await question.locator('[role="alert"]').waitFor({ state: "visible", timeout: 10_000 });
    expect(await question.locator('[role="alert"]').textContent()).toContain("not valid JSON");
    const result = { role: "assistant", content: { type: "text", text: "hi" }, model: "a person" };
    await question.locator("textarea").fill(JSON.stringify(result));
    await question.locator('button[data-action="accept"]').click();
    expect((await settledOf(asked.id)).answer).toMatchObject({ action: "accept", by: "web", content: result });
  });
});
