/**
 * What every broker store must do, whichever it is (SQLite on one machine, Redis for several
 * instances), through the BrokerStore interface alone. A store file runs it with a way to open
 * a fresh store, and a second one on the same data as another process or instance opens it:
 *   storeSuite("redis", async () => ({ store, second: () => open another, heartbeatLapseMs }))
 * Each test opens its own; the suite closes every store it was given.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { NewAuditEntry } from "../../src/broker/audit-store.js";
import type { BrokerStore, Owner } from "../../src/broker/store-api.js";
import type { NewTask } from "../../src/broker/task-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { until } from "../helpers/until.js";

export interface StoreHarness {
  /** A store with nothing in it. */
  store: BrokerStore;
  /** Another store on the same data: another connection, as another process or instance has. */
  second(): Promise<BrokerStore>;
  /**
   * Liveness kept by heartbeats (Redis): an owner that leaves is gone at once, and one whose
   * store stops beating is gone after this long. Absent: liveness is the process's (SQLite).
   */
  heartbeatLapseMs?: number;
}

const BASE = Date.parse("2026-12-01T10:00:00.000Z");
const OWNER: Owner = { pid: process.pid, instance: "instance-a" };

/** A question as the broker stores it; every optional field given, so each is seen to come back. */
function question(over: Partial<QuestionRecord> = {}, offsetMs = 0): QuestionRecord {
  const schema = { type: "object", properties: { name: { type: "string" } } };
  return {
    id: `q-${randomUUID()}`,
    server: "files",
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    message: "Tell me",
    params: { message: "Tell me", requestedSchema: schema },
    requestedSchema: schema,
    tool: "write",
    identity: "alice",
    audience: "agent",
    audienceReason: "no sensitive words",
    createdAt: new Date(BASE + offsetMs).toISOString(),
    expiresAt: new Date(BASE + offsetMs + 60_000).toISOString(),
    state: "pending",
    ownerPid: OWNER.pid,
    ownerInstance: OWNER.instance,
    ...over,
  };
}

function task(over: Partial<NewTask> = {}): NewTask {
  return {
    id: `files/${randomUUID()}`,
    identity: "alice",
    hostSession: "session-1",
    server: "files",
    tool: "long",
    upstreamTaskId: `up-${randomUUID()}`,
    status: "working",
    createdMs: BASE,
    expiresMs: BASE + 3_600_000,
    ...over,
  };
}

function callEntry(over: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return { kind: "call", identity: "local", server: "files", tool: "read", outcome: "ok", durationMs: 3, ...over };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pid no process has now: a child that ran and was reaped. */
function deadPid(): number {
  return spawnSync("sh", ["-c", ":"]).pid!;
}

export function storeSuite(name: string, open: () => Promise<StoreHarness>): void {
  describe(`the ${name} store`, () => {
    const opened: BrokerStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    /** The store under test and a second on the same data, both closed after the test. */
    async function two(): Promise<{ a: BrokerStore; b: BrokerStore; harness: StoreHarness }> {
      const harness = await open();
      opened.push(harness.store);
      const b = await harness.second();
      opened.push(b);
      return { a: harness.store, b, harness };
    }

    async function one(): Promise<BrokerStore> {
      const harness = await open();
      opened.push(harness.store);
      return harness.store;
    }

    describe("questions", () => {
      it("keeps a question as given, readable by another store", async () => {
        const { a, b } = await two();
        const form = question({ hostSession: "session-1" });
        const link = question(
          { mode: "url", url: "https://example.com/sign-in", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in" } },
          1,
        );
        delete link.requestedSchema;
        delete link.tool;
        delete link.identity;
        await a.questions.insert(form);
        await a.questions.insert(link);
        expect(await b.questions.get(form.id)).toEqual(form);
        expect(await b.questions.get(link.id)).toEqual(link);
        expect(await b.questions.get("q-never-asked")).toBeUndefined();
        expect(a.open).toBe(true);
        expect(await a.unwritable()).toBeUndefined();
      });

      it("refuses a second question under an id already stored, and keeps the first", async () => {
        const store = await one();
        const first = question();
        await store.questions.insert(first);
        await expect(store.questions.insert({ ...first, message: "another" })).rejects.toThrow();
        expect((await store.questions.get(first.id))?.message).toBe("Tell me");
      });

      it("lists the pending questions oldest first, and every kept one with all", async () => {
        const store = await one();
        const later = question({}, 2_000);
        const earlier = question({}, 1_000);
        const answered = question({}, 1_500);
        for (const record of [later, earlier, answered]) await store.questions.insert(record);
        await store.questions.settle(answered.id, "answered", { action: "decline", by: "cli" });
        expect((await store.questions.list()).map((record) => record.id)).toEqual([earlier.id, later.id]);
        expect((await store.questions.list(true)).map((record) => record.id)).toEqual([earlier.id, answered.id, later.id]);
      });

      it("settles a pending question once: the first answer wins, the second learns it lost", async () => {
        const store = await one();
        const record = question();
        await store.questions.insert(record);
        const at = BASE + 5_000;
        expect(await store.questions.settle(record.id, "answered", { action: "accept", content: { name: "Ada" }, by: "rest", from: "127.0.0.1" }, at)).toBe(
          true,
        );
        expect(await store.questions.settle(record.id, "answered", { action: "decline", by: "cli" })).toBe(false);
        expect(await store.questions.settle("q-never-asked", "answered", { action: "decline", by: "cli" })).toBe(false);
        const settled = await store.questions.get(record.id);
        expect(settled?.state).toBe("answered");
        expect(settled?.answer).toEqual({ action: "accept", content: { name: "Ada" }, by: "rest", from: "127.0.0.1", answeredAt: new Date(at).toISOString() });
        expect(await store.questions.list()).toEqual([]);
      });

      it("of two answers given at once through two stores, exactly one wins, every time", async () => {
        const { a, b } = await two();
        const rounds = 100;
        const records = Array.from({ length: rounds }, (_, i) => question({}, i));
        for (const record of records) await a.questions.insert(record);
        const outcomes = await Promise.all(
          records.map((record) =>
            Promise.all([
              a.questions.settle(record.id, "answered", { action: "accept", content: { name: "from a" }, by: "web" }),
              b.questions.settle(record.id, "answered", { action: "decline", by: "cli" }),
            ]),
          ),
        );
        for (const [i, [byA, byB]] of outcomes.entries()) {
          expect(byA !== byB, `round ${i}: a ${byA}, b ${byB}`).toBe(true);
          const settled = await b.questions.get(records[i]!.id);
          expect(settled?.answer?.by).toBe(byA ? "web" : "cli");
        }
      });

      it("expiry is a settle too: overdue lists the pending questions past their deadline, once expired no longer", async () => {
        const store = await one();
        const due = question({}, 0);
        const notYet = question({}, 120_000);
        await store.questions.insert(due);
        await store.questions.insert(notYet);
        const now = BASE + 60_000;
        expect(await store.questions.overdue(now)).toEqual([due.id]);
        expect(await store.questions.settle(due.id, "expired", { action: "cancel", by: "expiry" }, now)).toBe(true);
        expect(await store.questions.overdue(now)).toEqual([]);
        expect(await store.questions.settle(due.id, "expired", { action: "cancel", by: "expiry" }, now)).toBe(false);
      });

      it("inserts a question answered from the start (a rule answered it)", async () => {
        const store = await one();
        const record = question();
        await store.questions.insertSettled(record, { action: "accept", content: { name: "rule" }, by: "rule:1" });
        const stored = await store.questions.get(record.id);
        expect(stored?.state).toBe("answered");
        expect(stored?.answer).toMatchObject({ action: "accept", content: { name: "rule" }, by: "rule:1" });
        expect(await store.questions.list()).toEqual([]);
        expect(await store.questions.overdue(BASE + 3_600_000)).toEqual([]);
        expect(await store.questions.pendingOwners()).toEqual([]);
      });

      it("completes a URL question: a pending one is accepted by the same hand, once; a declined one never", async () => {
        const store = await one();
        const pending = question({ mode: "url", url: "https://example.com/x" });
        const accepted = question({ mode: "url", url: "https://example.com/y" });
        const declined = question({ mode: "url", url: "https://example.com/z" });
        for (const record of [pending, accepted, declined]) await store.questions.insert(record);
        await store.questions.settle(accepted.id, "answered", { action: "accept", by: "web" });
        await store.questions.settle(declined.id, "answered", { action: "decline", by: "web" });
        const at = BASE + 9_000;
        expect(await store.questions.complete(pending.id, "web", at, "127.0.0.1")).toBe(true);
        expect(await store.questions.complete(pending.id, "cli", at)).toBe(false);
        expect(await store.questions.complete(accepted.id, "server:files", at)).toBe(true);
        expect(await store.questions.complete(declined.id, "web", at)).toBe(false);
        expect(await store.questions.complete("q-never-asked", "web", at)).toBe(false);
        const done = await store.questions.get(pending.id);
        expect(done?.state).toBe("answered");
        expect(done?.answer).toMatchObject({ action: "accept", by: "web", from: "127.0.0.1" });
        expect(done?.completion).toEqual({ by: "web", completedAt: new Date(at).toISOString() });
        expect((await store.questions.get(accepted.id))?.completion?.by).toBe("server:files");
        expect((await store.questions.get(declined.id))?.completion).toBeUndefined();
      });

      it("names the owners of pending questions, and the questions each owns", async () => {
        const store = await one();
        const other: Owner = { pid: 4242, instance: "instance-b" };
        const mine = question();
        const theirs = question({ ownerPid: other.pid, ownerInstance: other.instance });
        await store.questions.insert(mine);
        await store.questions.insert(theirs);
        const byInstance = (owners: Owner[]) => [...owners].sort((x, y) => x.instance.localeCompare(y.instance));
        expect(byInstance(await store.questions.pendingOwners())).toEqual([OWNER, other]);
        expect(await store.questions.pendingOwnedBy(other.instance)).toEqual([theirs.id]);
        await store.questions.settle(theirs.id, "closed", { action: "cancel", by: "closed" });
        expect(await store.questions.pendingOwners()).toEqual([OWNER]);
        expect(await store.questions.pendingOwnedBy(other.instance)).toEqual([]);
      });

      it("forgets a person-only answer's content (action, who and when stay), once; an agent's answer keeps it", async () => {
        const store = await one();
        const secret = question({ audience: "person", audienceReason: "asks for a password" });
        const plain = question();
        await store.questions.insert(secret);
        await store.questions.insert(plain);
        await store.questions.settle(secret.id, "answered", { action: "accept", content: { password: "hunter2" }, by: "web" });
        await store.questions.settle(plain.id, "answered", { action: "accept", content: { name: "Ada" }, by: "web" });
        expect(await store.questions.heldSecrets()).toEqual([{ id: secret.id, ...OWNER }]);
        expect(await store.questions.forgetPersonOnlyContent(secret.id)).toBe(true);
        expect(await store.questions.forgetPersonOnlyContent(secret.id)).toBe(false);
        expect(await store.questions.forgetPersonOnlyContent(plain.id)).toBe(false);
        const forgotten = await store.questions.get(secret.id);
        expect(forgotten?.answer).toMatchObject({ action: "accept", by: "web" });
        expect(forgotten?.answer?.content).toBeUndefined();
        expect((await store.questions.get(plain.id))?.answer?.content).toEqual({ name: "Ada" });
        expect(await store.questions.heldSecrets()).toEqual([]);
      });

      it("records delivery once, and only of an answer", async () => {
        const store = await one();
        const record = question();
        await store.questions.insert(record);
        expect(await store.questions.markDelivered(record.id)).toBe(false);
        await store.questions.settle(record.id, "answered", { action: "decline", by: "cli" });
        const at = BASE + 7_000;
        expect(await store.questions.markDelivered(record.id, at)).toBe(true);
        expect(await store.questions.markDelivered(record.id, at + 1)).toBe(false);
        expect((await store.questions.get(record.id))?.deliveredAt).toBe(new Date(at).toISOString());
      });

      it("attaches a pending question nobody owned to a call, once; counts the unattributed", async () => {
        const store = await one();
        const free = question({ server: "mail" });
        const hosts = question({ server: "mail", hostSession: "session-1" });
        const done = question({ server: "mail" }, 1);
        for (const record of [free, hosts, done]) await store.questions.insert(record);
        await store.questions.settle(done.id, "answered", { action: "decline", by: "cli" });
        expect(await store.questions.unattributedFrom("mail")).toBe(2);
        expect(await store.questions.attachToCall(free.id, "call-1")).toBe(true);
        expect(await store.questions.attachToCall(free.id, "call-2")).toBe(false);
        expect(await store.questions.attachToCall(hosts.id, "call-1")).toBe(false);
        expect(await store.questions.attachToCall(done.id, "call-1")).toBe(false);
        expect(await store.questions.unattributedFrom("mail")).toBe(1);
        expect(await store.questions.unattributedFrom("files")).toBe(0);
        const asked = question({ callId: "call-1" }, 5);
        await store.questions.insert(asked);
        expect((await store.questions.ofCall("call-1")).map((record) => record.id)).toEqual([free.id, asked.id]);
        expect((await store.questions.get(free.id))?.callId).toBe("call-1");
        expect(await store.questions.ofCall("call-2")).toEqual([]);
      });

      it("prunes settled questions created before a time; pending and newer ones stay", async () => {
        const store = await one();
        const oldSettled = question({ callId: "call-9" }, 0);
        const oldPending = question({}, 1);
        const newSettled = question({}, 100_000);
        for (const record of [oldSettled, oldPending, newSettled]) await store.questions.insert(record);
        await store.questions.settle(oldSettled.id, "answered", { action: "decline", by: "cli" });
        await store.questions.settle(newSettled.id, "answered", { action: "decline", by: "cli" });
        expect(await store.questions.prune(BASE + 50_000)).toBe(1);
        expect(await store.questions.get(oldSettled.id)).toBeUndefined();
        expect(await store.questions.ofCall("call-9")).toEqual([]);
        expect((await store.questions.list(true)).map((record) => record.id)).toEqual([oldPending.id, newSettled.id]);
        expect(await store.questions.prune(BASE + 50_000)).toBe(0);
      });
    });

    describe("calls", () => {
      it("keeps a call from start to its one end, and finds it by a prefix of its id", async () => {
        const { a, b } = await two();
        const run = `c${randomUUID()}`;
        await a.calls.create(run, "files", "read", { path: "/tmp/x" });
        await a.calls.setRunner(run, 1234);
        expect(await b.calls.get(run)).toMatchObject({
          id: run,
          server: "files",
          tool: "read",
          arguments: { path: "/tmp/x" },
          state: "running",
          runnerPid: 1234,
        });
        await a.calls.finish(run, { result: { content: [] } });
        await a.calls.finish(run, { error: "too late" });
        const done = await b.calls.get(run);
        expect(done).toMatchObject({ state: "done", result: { content: [] } });
        expect(done?.error).toBeUndefined();
        expect(done?.finishedAt).toBeDefined();
        const failed = `c${randomUUID()}`;
        await a.calls.create(failed, "files", "write", {});
        await a.calls.finish(failed, { error: "the server stopped" });
        expect(await b.calls.get(failed)).toMatchObject({ state: "failed", error: "the server stopped" });
        expect(await b.calls.get("c-never")).toBeUndefined();
        await a.calls.setRunner("c-never", 1);
        expect(await b.calls.get("c-never")).toBeUndefined();
      });

      it("finds ids by prefix, oldest first, at most as many as asked", async () => {
        const store = await one();
        const stem = `p${randomUUID().slice(0, 8)}`;
        const ids = [`${stem}-1`, `${stem}-0`, `${stem}-2`];
        for (const id of ids) {
          await store.calls.create(id, "files", "read", {});
          await sleep(3);
        }
        expect(await store.calls.idsStartingWith(stem, 10)).toEqual(ids);
        expect(await store.calls.idsStartingWith(stem, 2)).toEqual(ids.slice(0, 2));
        expect(await store.calls.idsStartingWith(`${stem}-2`, 10)).toEqual([`${stem}-2`]);
        expect(await store.calls.idsStartingWith("zzz-none", 10)).toEqual([]);
      });

      it("prunes finished calls created before a time, naming them; running ones stay", async () => {
        const store = await one();
        const finished = `c${randomUUID()}`;
        const running = `c${randomUUID()}`;
        await store.calls.create(finished, "files", "read", {});
        await store.calls.create(running, "files", "read", {});
        await store.calls.finish(finished, { result: {} });
        const later = Date.now() + 1_000;
        expect(await store.calls.prune(later)).toEqual([finished]);
        expect(await store.calls.get(finished)).toBeUndefined();
        expect((await store.calls.get(running))?.state).toBe("running");
        expect(await store.calls.idsStartingWith(finished, 5)).toEqual([]);
      });
    });

    describe("tasks", () => {
      it("keeps a task as recorded and as last heard; one that ended stays as it ended", async () => {
        const { a, b } = await two();
        const first = task();
        await a.tasks.record(first, OWNER);
        const stored = await b.tasks.get(first.id);
        expect(stored).toMatchObject({
          id: first.id,
          identity: "alice",
          hostSession: "session-1",
          server: "files",
          tool: "long",
          upstreamTaskId: first.upstreamTaskId,
          status: "working",
          createdAt: new Date(BASE).toISOString(),
          expiresAt: new Date(BASE + 3_600_000).toISOString(),
          followerPid: OWNER.pid,
          followerInstance: OWNER.instance,
        });
        expect(stored?.statusMessage).toBeUndefined();
        await a.tasks.heard(first.id, "input_required", "needs a name");
        expect(await b.tasks.get(first.id)).toMatchObject({ status: "input_required", statusMessage: "needs a name" });
        await a.tasks.heard(first.id, "working", undefined);
        expect((await b.tasks.get(first.id))?.statusMessage).toBeUndefined();
        await a.tasks.heard(first.id, "completed", undefined);
        await a.tasks.heard(first.id, "working", "too late");
        expect((await b.tasks.get(first.id))?.status).toBe("completed");
        const unowned = task({ hostSession: undefined, expiresMs: undefined, createdMs: BASE + 1 });
        await a.tasks.record(unowned, OWNER);
        const bare = await b.tasks.get(unowned.id);
        expect(bare?.hostSession).toBeUndefined();
        expect(bare?.expiresAt).toBeUndefined();
        expect((await b.tasks.all()).map((record) => record.id)).toEqual([first.id, unowned.id]);
        expect(await b.tasks.get("files/never")).toBeUndefined();
      });

      it("names who follows the tasks not yet ended, and fails an instance's tasks when it can no longer follow them", async () => {
        const store = await one();
        const other: Owner = { pid: 4242, instance: "instance-b" };
        const mine = task();
        const theirs = task({ createdMs: BASE + 1 });
        const theirsDone = task({ createdMs: BASE + 2 });
        await store.tasks.record(mine, OWNER);
        await store.tasks.record(theirs, other);
        await store.tasks.record(theirsDone, other);
        await store.tasks.heard(theirsDone.id, "completed", undefined);
        const sorted = (owners: Owner[]) => [...owners].sort((x, y) => x.instance.localeCompare(y.instance));
        expect(sorted(await store.tasks.followers())).toEqual([OWNER, other]);
        expect(await store.tasks.unfollowable(other.instance, "its process is gone")).toBe(1);
        expect(await store.tasks.unfollowable(other.instance, "again")).toBe(0);
        expect(await store.tasks.get(theirs.id)).toMatchObject({ status: "failed", statusMessage: "its process is gone" });
        expect((await store.tasks.get(theirsDone.id))?.status).toBe("completed");
        expect(await store.tasks.followers()).toEqual([OWNER]);
      });

      it("takes a cancel request while the task runs, once", async () => {
        const store = await one();
        const running = task();
        await store.tasks.record(running, OWNER);
        expect(await store.tasks.requestCancel(running.id, "cancelled by a person")).toBe(true);
        expect(await store.tasks.requestCancel(running.id, "again")).toBe(false);
        expect(await store.tasks.requestCancel("files/never", "no")).toBe(false);
        expect(await store.tasks.get(running.id)).toMatchObject({ status: "cancelled", statusMessage: "cancelled by a person" });
        expect(await store.tasks.followers()).toEqual([]);
      });

      it("prunes ended tasks created before a time; running and newer ones stay", async () => {
        const store = await one();
        const oldEnded = task();
        const oldRunning = task({ createdMs: BASE + 1 });
        const newEnded = task({ createdMs: BASE + 100_000 });
        for (const record of [oldEnded, oldRunning, newEnded]) await store.tasks.record(record, OWNER);
        await store.tasks.heard(oldEnded.id, "failed", "boom");
        await store.tasks.heard(newEnded.id, "completed", undefined);
        await store.tasks.prune(BASE + 50_000);
        expect((await store.tasks.all()).map((record) => record.id)).toEqual([oldRunning.id, newEnded.id]);
      });
    });

    describe("the audit trail", () => {
      it("appends entries in order, every field kept, and filters them as asked", async () => {
        const { a, b } = await two();
        const full: NewAuditEntry = {
          kind: "question",
          identity: "alice",
          hostSession: "session-1",
          profile: "readonly",
          client: "claude 1.0",
          callId: "call-1",
          server: "mail",
          tool: "send",
          arguments: { to: "bob", body: "[redacted]" },
          outcome: "accept",
          durationMs: 12,
          questionId: "q-1",
          method: "elicitation/create",
          answeredBy: "web",
          answeredFrom: "127.0.0.1",
          detail: "asked once",
        };
        await a.audit.append(callEntry(), BASE);
        await b.audit.append(full, BASE + 1_000);
        await a.audit.append(callEntry({ tool: "write", identity: "bob", hostSession: "session-2" }), BASE + 2_000);
        const all = await a.audit.list();
        expect(all).toHaveLength(3);
        expect(all[0]!.seq).toBeLessThan(all[1]!.seq);
        expect(all[1]!.seq).toBeLessThan(all[2]!.seq);
        expect(all[1]).toEqual({ ...full, seq: all[1]!.seq, at: new Date(BASE + 1_000).toISOString() });
        expect(all[0]).toEqual({ ...callEntry(), seq: all[0]!.seq, at: new Date(BASE).toISOString() });
        expect((await a.audit.list({ server: "mail" })).map((entry) => entry.seq)).toEqual([all[1]!.seq]);
        expect((await a.audit.list({ tool: "read" })).map((entry) => entry.seq)).toEqual([all[0]!.seq]);
        expect((await a.audit.list({ hostSession: "session-2" })).map((entry) => entry.seq)).toEqual([all[2]!.seq]);
        expect((await a.audit.list({ identity: "alice" })).map((entry) => entry.seq)).toEqual([all[1]!.seq]);
        expect((await a.audit.list({ profile: "readonly" })).map((entry) => entry.seq)).toEqual([all[1]!.seq]);
        expect((await a.audit.list({ sinceMs: BASE + 1_000 })).map((entry) => entry.seq)).toEqual([all[1]!.seq, all[2]!.seq]);
        expect((await a.audit.list({ limit: 2 })).map((entry) => entry.seq)).toEqual([all[1]!.seq, all[2]!.seq]);
        expect((await a.audit.list({ server: "files", limit: 1 })).map((entry) => entry.seq)).toEqual([all[2]!.seq]);
      });

      it("lets entries older than the retention go", async () => {
        const store = await one();
        for (let i = 0; i < 5; i += 1) await store.audit.append(callEntry({ detail: String(i) }), BASE + i * 1_000);
        expect(await store.audit.prune(BASE + 2_000)).toBe(2);
        expect((await store.audit.list()).map((entry) => entry.detail)).toEqual(["2", "3", "4"]);
        expect(await store.audit.prune(BASE + 2_000)).toBe(0);
      });
    });

    describe("page codes", () => {
      it("are claimed once across stores until they expire; expired ones are forgotten", async () => {
        const { a, b } = await two();
        const now = Date.now();
        const nonce = randomUUID();
        const claims = await Promise.all([a.usedPageCodes.claim(nonce, now + 60_000, now), b.usedPageCodes.claim(nonce, now + 60_000, now)]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await a.usedPageCodes.claim(nonce, now + 60_000, now + 1)).toBe(false);
        const short = randomUUID();
        expect(await a.usedPageCodes.claim(short, now + 10, now)).toBe(true);
        expect(await b.usedPageCodes.count()).toBe(2);
        // Once past its expiry the short one is forgotten by the next claim, and could be taken again.
        expect(await b.usedPageCodes.claim(randomUUID(), now + 60_000, now + 20)).toBe(true);
        expect(await a.usedPageCodes.count()).toBe(2);
        expect(await a.usedPageCodes.claim(short, now + 60_000, now + 20)).toBe(true);
        expect(await a.usedPageCodes.claim(nonce, now + 60_000, now + 20)).toBe(false);
      });
    });

    describe("page sessions", () => {
      const LIMITS = { perIdentity: 3, total: 5 };

      it("are known on every store on the same data, while good, by digest; cleared for all", async () => {
        const { a, b } = await two();
        const now = Date.now();
        await a.pageSessions.open("digest-1", "local", now + 60_000, LIMITS, now);
        await a.pageSessions.open("digest-2", "https://id.example#alice", now + 60_000, LIMITS, now);
        expect(await b.pageSessions.identityOf("digest-1", now + 1)).toBe("local");
        expect(await b.pageSessions.identityOf("digest-2", now + 1)).toBe("https://id.example#alice");
        expect(await b.pageSessions.identityOf("digest-3", now + 1)).toBeUndefined();
        expect(await b.pageSessions.identityOf("digest-1", now + 60_000)).toBeUndefined();
        await b.pageSessions.clear();
        expect(await a.pageSessions.identityOf("digest-1", now + 1)).toBeUndefined();
      });

      it("keep their bounds whichever store signs tabs in: an identity's own oldest go first, then anyone's", async () => {
        const { a, b } = await two();
        const now = Date.now();
        await a.pageSessions.open("operator", "local", now + 60_000, LIMITS, now);
        for (let i = 0; i < 5; i++) await (i % 2 ? a : b).pageSessions.open(`alice-${i}`, "alice", now + 60_000 + i, LIMITS, now + i);
        const alices = await Promise.all([0, 1, 2, 3, 4].map((i) => a.pageSessions.identityOf(`alice-${i}`, now + 10)));
        expect(alices).toEqual([undefined, undefined, "alice", "alice", "alice"]);
        expect(await b.pageSessions.identityOf("operator", now + 10)).toBe("local");
        // Beyond the total, the oldest of anyone's: the operator's.
        await b.pageSessions.open("bob-1", "bob", now + 60_100, LIMITS, now + 10);
        await a.pageSessions.open("bob-2", "bob", now + 60_101, LIMITS, now + 11);
        expect(await a.pageSessions.identityOf("operator", now + 20)).toBeUndefined();
        expect(await a.pageSessions.identityOf("alice-2", now + 20)).toBe("alice");
        expect(await b.pageSessions.identityOf("bob-1", now + 20)).toBe("bob");
        expect(await b.pageSessions.identityOf("bob-2", now + 20)).toBe("bob");
        expect(await b.pageSessions.identityOf("alice-4", now + 20)).toBe("alice");
      });

      it("opened at once on two stores stay within the total", async () => {
        const { a, b } = await two();
        const now = Date.now();
        await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).pageSessions.open(`tab-${i}`, `person-${i}`, now + 60_000, LIMITS, now)));
        const known = await Promise.all(Array.from({ length: 12 }, (_, i) => a.pageSessions.identityOf(`tab-${i}`, now + 1)));
        expect(known.filter((identity) => identity !== undefined)).toHaveLength(LIMITS.total);
      });
    });

    describe("liveness", () => {
      it("a joined owner is alive on every store; one that never joined and whose process is gone is not", async () => {
        const { a, b } = await two();
        const owner: Owner = { pid: process.pid, instance: `live-${randomUUID()}` };
        const leave = a.liveness.join(owner);
        expect(await a.liveness.alive(owner)).toBe(true);
        expect(await b.liveness.alive(owner)).toBe(true);
        expect(await b.liveness.alive({ pid: deadPid(), instance: `gone-${randomUUID()}` })).toBe(false);
        await leave();
      });

      it("an owner that leaves, or whose heartbeat stops, is gone (heartbeat stores)", async (context) => {
        const harness = await open();
        opened.push(harness.store);
        const lapse = harness.heartbeatLapseMs;
        if (lapse === undefined) return context.skip();
        const b = await harness.second();
        opened.push(b);
        const leaving: Owner = { pid: process.pid, instance: `leaving-${randomUUID()}` };
        const leave = harness.store.liveness.join(leaving);
        // Its first heartbeat is written as it joins; on a loaded machine it may land a moment later.
        await until(async () => await b.liveness.alive(leaving), "the joining owner alive", 5_000);
        // The address it advertises for the cluster's hops is found by the others, and goes with it.
        expect(await b.liveness.addressOf(leaving.instance)).toBeUndefined();
        harness.store.liveness.advertise(leaving.instance, "http://127.0.0.1:7001");
        await until(async () => (await b.liveness.addressOf(leaving.instance)) === "http://127.0.0.1:7001", "the advertised address", 3_000);
        await leave();
        expect(await b.liveness.alive(leaving)).toBe(false);
        expect(await b.liveness.addressOf(leaving.instance)).toBeUndefined();
        const silent: Owner = { pid: process.pid, instance: `silent-${randomUUID()}` };
        const c = await harness.second();
        c.liveness.join(silent);
        expect(await b.liveness.alive(silent)).toBe(true);
        // Its store closes without leaving (as a killed instance would stop): alive until the lapse, then gone.
        await c.close();
        expect(await b.liveness.alive(silent)).toBe(true);
        const stopped = Date.now();
        await sleep(lapse + 500);
        expect(Date.now() - stopped).toBeGreaterThanOrEqual(lapse);
        expect(await b.liveness.alive(silent)).toBe(false);
      });
    });

    describe("shared secrets", () => {
      it("are the same for every store, made once by whichever asks first", async () => {
        const { a, b } = await two();
        const name = `key-${randomUUID()}`;
        const [fromA, fromB] = await Promise.all([a.secrets.get(name), b.secrets.get(name)]);
        expect(fromA).toMatch(/^[0-9a-f]{64}$/);
        expect(fromB).toBe(fromA);
        expect(await a.secrets.get(name)).toBe(fromA);
        expect(await b.secrets.get(`${name}-other`)).not.toBe(fromA);
      });
    });

    describe("changes", () => {
      it("a write through one store is heard on the other, until it stops listening", async () => {
        const { a, b } = await two();
        let heard = 0;
        const stop = b.onChange(() => {
          heard += 1;
        });
        const record = question();
        await a.questions.insert(record);
        await until(() => heard > 0, "the insert heard on the other store", 3_000);
        const before = heard;
        await a.questions.settle(record.id, "answered", { action: "decline", by: "cli" });
        await until(() => heard > before, "the answer heard on the other store", 3_000);
        stop();
        const after = heard;
        await a.tasks.record(task(), OWNER);
        await sleep(300);
        expect(heard).toBe(after);
      });
    });
  });
}
