/**
 * The store's tasks on the REST API and the page (issue 17 item 4), served by the store server
 * `mcpx ui` runs: `GET /v1/tasks` and `/v1/tasks/:id` show the caller's own identity's tasks
 * only (another's is unknown, 404), and the page lists them, as text, in headless Chromium.
 * `POST /v1/tasks/:id/cancel` and the page's Cancel button cancel the caller's own running
 * task in the store (the process that follows it cancels it upstream: rest-cancel.test.ts).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageLink } from "../../src/api/page-codes.js";
import { startStoreServer, type StoreServer } from "../../src/api/store-server.js";
import type { TaskRecord } from "../../src/broker/task-store.js";
import { silentLogger } from "../../src/util/log.js";
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { tempStateDir } from "../helpers/questions-api.js";

const chromiumHere = haveChromium("test/tasks/tasks-api-page.test.ts");

let server: StoreServer;
const ids = {
  running: "work/0f6e7c1a-0000-4000-8000-000000000001",
  ended: "work/0f6e7c1a-0000-4000-8000-000000000002",
  bobs: "work/0f6e7c1a-0000-4000-8000-000000000003",
};

/** A task record of `identity`'s, running. */
const task = (id: string, identity: string, tool: string) => ({
  id,
  identity,
  hostSession: undefined,
  server: "work",
  tool,
  upstreamTaskId: `up-${id.slice(-1)}`,
  status: "working",
  createdMs: Date.now(),
  expiresMs: undefined,
});

beforeAll(async () => {
  server = await startStoreServer({ host: "127.0.0.1", port: 0, stateDir: tempStateDir(), log: silentLogger });
  await server.broker.recordTask(task(ids.running, "local", 'slow <img src=x onerror="globalThis.pwned=1">'));
  await server.broker.recordTask(task(ids.ended, "local", "quick"));
  await server.broker.taskHeard(ids.ended, "completed", "done in a blink");
  await server.broker.recordTask(task(ids.bobs, "https://issuer.example#bob", "bobs_job"));
});
afterAll(async () => {
  await server?.close();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(path, server.url), { headers: { authorization: `Bearer ${server.token}` } });
  return { status: response.status, body: await response.json() };
}

describe("GET /v1/tasks", () => {
  it("lists the caller's running tasks, ended ones with all=1, never another identity's", async () => {
    const running = await get("/v1/tasks");
    expect(running.status).toBe(200);
    expect((running.body as TaskRecord[]).map((task) => task.id)).toEqual([ids.running]);
    const all = (await get("/v1/tasks?all=1")).body as TaskRecord[];
    expect(all.map((task) => [task.id, task.status])).toEqual([
      [ids.running, "working"],
      [ids.ended, "completed"],
    ]);
    expect(all[1]).toMatchObject({ server: "work", tool: "quick", statusMessage: "done in a blink", identity: "local" });
  });

  it("gives one task by id; another identity's is unknown, as one that never existed", async () => {
    expect((await get(`/v1/tasks/${encodeURIComponent(ids.ended)}`)).body).toMatchObject({ id: ids.ended, status: "completed" });
    for (const id of [ids.bobs, "work/never"]) {
      const reply = await get(`/v1/tasks/${encodeURIComponent(id)}`);
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe("UNKNOWN_TASK");
    }
    const response = await fetch(new URL("/v1/tasks", server.url), { method: "POST", headers: { authorization: `Bearer ${server.token}` } });
    expect(response.status).toBe(405);
  });

  it("needs the token", async () => {
    expect((await fetch(new URL("/v1/tasks", server.url))).status).toBe(401);
  });
});

describe("POST /v1/tasks/:id/cancel", () => {
  async function cancel(id: string): Promise<{ status: number; body: any }> {
    const response = await fetch(new URL(`/v1/tasks/${encodeURIComponent(id)}/cancel`, server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}` },
    });
    return { status: response.status, body: await response.json() };
  }

  it("cancels the caller's running task in the store", async () => {
    const id = "work/0f6e7c1a-0000-4000-8000-000000000004";
    await server.broker.recordTask(task(id, "local", "to_cancel"));
    const reply = await cancel(id);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id, status: "cancelled" });
    expect((await server.broker.store.tasks.get(id))?.status).toBe("cancelled");
  });

  it("refuses an ended task (409 TASK_ENDED, saying how it ended); another identity's is unknown (404), and stays as it was", async () => {
    const ended = await cancel(ids.ended);
    expect(ended.status).toBe(409);
    expect(ended.body.error).toMatchObject({ code: "TASK_ENDED" });
    expect(ended.body.error.message).toContain("completed: done in a blink");
    const bobs = await cancel(ids.bobs);
    expect(bobs.status).toBe(404);
    expect(bobs.body.error.code).toBe("UNKNOWN_TASK");
    expect((await server.broker.store.tasks.get(ids.bobs))?.status).toBe("working");
    const response = await fetch(new URL(`/v1/tasks/${encodeURIComponent(ids.running)}/cancel`, server.url), {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(response.status).toBe(405);
  });
});

(chromiumHere ? describe : describe.skip)("the page's tasks", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(pageLink(server.token, server.url).href);
    await page.locator("#status.live").waitFor({ timeout: 10_000 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("lists the caller's tasks with their status, as text, and follows a change", async () => {
    const item = (id: string) => page.locator(`#tasks li[data-id="${id}"]`);
    await item(ids.running).waitFor({ timeout: 10_000 });
    expect(await item(ids.running).getAttribute("data-status")).toBe("working");
    expect(await item(ids.running).textContent()).toContain('work / slow <img src=x onerror="globalThis.pwned=1">');
    expect(await page.locator("#tasks img").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await item(ids.ended).textContent()).toContain("completed (done in a blink)");
    expect(await item(ids.bobs).count()).toBe(0);
    expect(await page.locator("#no-tasks").isHidden()).toBe(true);
    await server.broker.taskHeard(ids.running, "input_required", "waiting for a name");
    await page.locator(`#tasks li[data-id="${ids.running}"][data-status="input_required"]`).waitFor({ timeout: 10_000 });
  });

  it("cancels a running task with its Cancel button; an ended task has none", async () => {
    expect(await page.locator(`#tasks li[data-id="${ids.ended}"] button`).count()).toBe(0);
    await page.locator(`#tasks li[data-id="${ids.running}"] button.task-cancel`).click();
    await page.locator(`#tasks li[data-id="${ids.running}"][data-status="cancelled"]`).waitFor({ timeout: 10_000 });
    expect((await server.broker.store.tasks.get(ids.running))?.status).toBe("cancelled");
    expect(await page.locator(`#tasks li[data-id="${ids.running}"] button`).count()).toBe(0);
  });
});
