/**
 * The REST API and the event stream, over real HTTP against `mcpx ui` in its own process. The
 * test's broker is a second process on the same store: questions it opens and settles reach
 * the API only through the shared SQLite file.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventStream, rawRequest, type Frame } from "../helpers/raw-http.js";
import { startMcpxHttp, writeConfig } from "../helpers/mcpx.js";
import { askForm, openBroker, startUi, tempStateDir, type RunningUi } from "../helpers/questions-api.js";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name" },
    seats: { type: "integer", minimum: 1, maximum: 8 },
  },
  required: ["name", "seats"],
};

describe("REST API and event stream (mcpx ui)", () => {
  const dir = tempStateDir();
  let ui: RunningUi;
  let other: ReturnType<typeof openBroker>;
  const streams: EventStream[] = [];

  const api = (path: string): URL => new URL(path, ui.base);
  const auth = (): Record<string, string> => ({ authorization: `Bearer ${ui.token}` });
  const getJson = async (path: string, headers: Record<string, string> = auth()): Promise<{ status: number; body: any }> => {
    const response = await fetch(api(path), { headers, signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: await response.json() };
  };
  const answer = async (id: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
    const response = await fetch(api(`/v1/questions/${id}/answer`), {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.json() };
  };
  const openEvents = async (): Promise<EventStream> => {
    const controller = new AbortController();
    const response = await fetch(api("/v1/events"), { headers: auth(), signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = new EventStream(response, controller);
    streams.push(stream);
    return stream;
  };
  const stateOf = (id: string, state: string) => (frame: Frame) => frame.id === id && frame.state === state;

  beforeAll(async () => {
    ui = await startUi(dir);
    other = openBroker(dir);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await other?.close();
    await ui?.close();
  });

  it("keeps the token in a 0600 file in a 0700 state dir, and answers 401 naming that file without it", async () => {
    const tokenFile = join(dir, "api-token");
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const attempts: Array<Record<string, string>> = [{}, { authorization: "Bearer wrong" }, { cookie: "mcpx_token=wrong" }];
    for (const headers of attempts) {
      const reply = await getJson("/v1/questions", headers);
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe("UNAUTHORIZED");
      expect(reply.body.error.message).toContain(tokenFile);
    }
    // Even the event stream and unknown API paths say nothing without the token.
    expect((await fetch(api("/v1/events"))).status).toBe(401);
    expect((await fetch(api("/v1/nothing"))).status).toBe(401);
    expect((await getJson("/v1/questions")).status).toBe(200);
  });

  it("refuses a foreign Origin or Host with 403, even with the token", async () => {
    const evil = await rawRequest(api("/v1/questions"), "GET", { ...auth(), origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.body).toContain("evil.example");
    const rebound = await rawRequest(api("/v1/questions"), "GET", { ...auth(), host: `attacker.example:${ui.base.port}` });
    expect(rebound.status).toBe(403);
    const own = await rawRequest(api("/v1/questions"), "GET", { ...auth(), origin: ui.base.origin });
    expect(own.status).toBe(200);
    // No CORS: nothing invites another origin to read the answer.
    const response = await fetch(api("/v1/questions"), { headers: { ...auth(), origin: ui.base.origin } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lists, shows and answers; a bad answer is 400 naming the field, a second answer 409, an unknown id 404", async () => {
    const asked = await askForm(other.broker, "Book a table", SCHEMA);

    const list = await getJson("/v1/questions");
    expect(list.status).toBe(200);
    expect(list.body.map((view: { id: string }) => view.id)).toContain(asked.id);

    const shown = await getJson(`/v1/questions/${asked.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: asked.id, server: "demo", mode: "form", state: "pending", message: "Book a table", tool: "demo__book" });
    expect(shown.body.requestedSchema).toEqual(SCHEMA);
    expect(shown.body.secondsLeft).toBeGreaterThan(0);

    const missing = await answer(asked.id, { action: "accept", content: { name: "Ada" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "INVALID_ANSWER" });
    expect(missing.body.error.message).toContain('"seats"');
    const wrongType = await answer(asked.id, { action: "accept", content: { name: "Ada", seats: "two" } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('"seats"');
    const badAction = await answer(asked.id, { action: "maybe" });
    expect(badAction.status).toBe(400);
    expect(badAction.body.error.message).toContain('"action"');

    // The waiting process (the test's broker) learns of the answer through the store.
    const waited = other.broker.wait(asked.id);
    const accepted = await answer(asked.id, { action: "accept", content: { name: "Ada", seats: 2 } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: asked.id, state: "answered", answer: { action: "accept", by: "rest", content: { name: "Ada", seats: 2 } } });
    const settled = await waited;
    expect(settled.answer).toMatchObject({ action: "accept", by: "rest", content: { name: "Ada", seats: 2 } });
    // Who answered from where goes into the audit trail once the waiting process has the answer.
    expect(settled.answer?.from).toBe("127.0.0.1");
    await other.broker.delivered(asked.id);
    const entry = (await other.broker.store.audit.list()).find((audited) => audited.questionId === asked.id);
    expect(entry).toMatchObject({ kind: "question", outcome: "accept", answeredBy: "rest", answeredFrom: "127.0.0.1" });

    const again = await answer(asked.id, { action: "decline" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("ALREADY_SETTLED");
    expect(again.body.error.message).toContain("accept by rest");

    const unknown = await getJson("/v1/questions/no-such-question");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("UNKNOWN_QUESTION");
    expect((await answer("no-such-question", { action: "cancel" })).status).toBe(404);

    const pending = await getJson("/v1/questions");
    expect(pending.body.map((view: { id: string }) => view.id)).not.toContain(asked.id);
    const all = await getJson("/v1/questions?all=1");
    expect(all.body.find((view: { id: string }) => view.id === asked.id)).toMatchObject({ state: "answered" });
  });

  it("refuses bodies that are not JSON, too large, or sent with the wrong method", async () => {
    const asked = await askForm(other.broker, "Anything", SCHEMA);
    const plain = await answer(asked.id, '{"action":"cancel"}', { "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    const form = await answer(asked.id, "action=cancel", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const garbled = await answer(asked.id, "{not json");
    expect(garbled.status).toBe(400);
    const huge = await answer(asked.id, { action: "accept", content: { name: "x".repeat(70 * 1024), seats: 1 } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    const extra = await answer(asked.id, { action: "cancel", by: "someone else" });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain('"by"');
    const wrongMethod = await fetch(api(`/v1/questions/${asked.id}`), { method: "DELETE", headers: auth() });
    expect(wrongMethod.status).toBe(405);
    expect((await getJson(`/v1/questions/${asked.id}`)).body.state).toBe("pending");
    expect((await answer(asked.id, { action: "cancel" })).body.answer).toMatchObject({ action: "cancel", by: "rest" });
  });

  it("streams each question when it opens and when it is settled, in this process or another", async () => {
    const events = await openEvents();

    // Opened and settled by another process: mcpx ui sees both only through the store.
    const first = await askForm(other.broker, "Opened elsewhere", SCHEMA);
    const opened = await events.waitFor(stateOf(first.id, "pending"));
    expect(opened).toMatchObject({ server: "demo", mode: "form", message: "Opened elsewhere", requestedSchema: SCHEMA });
    await other.broker.answer(first.id, { action: "decline" }, { by: "cli" });
    const declined = await events.waitFor(stateOf(first.id, "answered"));
    expect(declined.answer).toMatchObject({ action: "decline", by: "cli" });

    // Settled through the API, in the ui process itself.
    const second = await askForm(other.broker, "Answered over REST", SCHEMA);
    await events.waitFor(stateOf(second.id, "pending"));
    await answer(second.id, { action: "cancel" });
    const cancelled = await events.waitFor(stateOf(second.id, "answered"));
    expect(cancelled.answer).toMatchObject({ action: "cancel", by: "rest" });

    // A second stream gets the same events; one event per change, not one per poll.
    const later = await openEvents();
    const third = await askForm(other.broker, "Seen by two", SCHEMA);
    await Promise.all([events.waitFor(stateOf(third.id, "pending")), later.waitFor(stateOf(third.id, "pending"))]);
    await other.broker.close(third.id, "the call was cancelled");
    await later.waitFor(stateOf(third.id, "closed"));
    await events.waitFor(stateOf(third.id, "closed"));
    expect(events.messages.filter((frame) => frame.id === first.id)).toHaveLength(2);
    expect(events.messages.filter((frame) => frame.id === third.id)).toHaveLength(2);
  });

  it("serves the page without data to anyone, sets no cookie, and trades the printed link's code once for a credential of the web's", async () => {
    // The page holds no data: it is served without a credential, under a strict CSP, and sets no cookie.
    const page = await fetch(api("/"));
    expect(page.status).toBe(200);
    expect(page.headers.get("set-cookie")).toBeNull();
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
    expect(html).toContain('<script src="/app.js"');
    expect(html).not.toMatch(/<script>(?!<)/);
    expect((await fetch(api("/app.js"))).headers.get("content-type")).toMatch(/javascript/);
    // The old link form opens nothing any more.
    const old = await fetch(api(`/?token=${ui.token}`), { redirect: "manual" });
    expect(old.status).toBe(200);
    expect(old.headers.get("set-cookie")).toBeNull();
    expect((await getJson("/v1/questions", { cookie: `mcpx_token=${ui.token}` })).status).toBe(401);

    // The link mcpx printed carries its code in the fragment, which no browser sends to a server.
    expect(ui.link.search).toBe("");
    expect(ui.link.hash).toMatch(/^#code=\S+$/);
    const code = ui.link.hash.slice("#code=".length);
    const exchange = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
      fetch(api("/v1/page-session"), { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    expect((await exchange(JSON.stringify({ code: `${code}x` }))).status).toBe(401);
    expect((await exchange(JSON.stringify({ code }), { "content-type": "text/plain" })).status).toBe(415);
    expect((await exchange("not json")).status).toBe(401);
    const traded = await exchange(JSON.stringify({ code }));
    expect(traded.status).toBe(200);
    expect(traded.headers.get("set-cookie")).toBeNull();
    const session = (await traded.json()) as { token: string; expiresInSeconds: number };
    expect(session.token).not.toBe(ui.token);
    expect(session.expiresInSeconds).toBeGreaterThan(0);
    const replayed = await exchange(JSON.stringify({ code }));
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: { message: string } }).error.message).toContain("mcpx link");

    // The tab's credential opens the API, and the page's answers are recorded as the web's.
    const tab = { authorization: `Bearer ${session.token}` };
    expect((await getJson("/v1/questions", tab)).status).toBe(200);
    const asked = await askForm(other.broker, "From the page", SCHEMA);
    const reply = await answer(asked.id, { action: "decline" }, tab);
    expect(reply.body.answer).toMatchObject({ action: "decline", by: "web" });
  });
});

describe("mcpx serve --http", () => {
  it("serves the same API beside /mcp, prints a one-time page link and where the API token is", async () => {
    const config = writeConfig({ mcpServers: {} });
    const mcpx = await startMcpxHttp(config);
    try {
      await mcpx.waitForLog(/mcpx: questions at (\S+)/);
      const page = new URL(/mcpx: questions at (\S+)/.exec(mcpx.stderr())![1]!);
      expect(page.origin).toBe(mcpx.url.origin);
      expect(page.hash).toMatch(/^#code=/);
      const stateDir = config.env.MCPX_STATE_DIR!;
      expect(mcpx.stderr()).toContain(`with the token in ${join(stateDir, "api-token")}`);
      const token = readFileSync(join(stateDir, "api-token"), "utf8").trim();
      expect(statSync(join(stateDir, "api-token")).mode & 0o777).toBe(0o600);

      expect((await fetch(new URL("/v1/questions", page))).status).toBe(401);
      const listed = await fetch(new URL("/v1/questions", page), { headers: { authorization: `Bearer ${token}` } });
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual([]);
      const other = openBroker(stateDir);
      try {
        const asked = await askForm(other.broker, "Through serve", SCHEMA);
        const shown = await fetch(new URL(`/v1/questions/${asked.id}`, page), { headers: { authorization: `Bearer ${token}` } });
        expect(((await shown.json()) as { message: string }).message).toBe("Through serve");
      } finally {
        await other.close();
      }
      // The MCP endpoint is still the gateway's.
      expect((await fetch(mcpx.url)).status).toBe(400);
    } finally {
      await mcpx.close();
    }
  });
});
