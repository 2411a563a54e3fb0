/**
 * Who owns a relayed task (host/tasks/registry.ts): the session that created it, or, for a host
 * signed in as an identity, that identity, whichever of its sessions asks; nobody else finds it.
 */
import { describe, expect, it } from "vitest";
import { TaskRegistry } from "../../src/host/tasks/registry.js";
import { HostSession } from "../../src/host/session.js";
import type { Peer } from "../../src/rpc/peer.js";
import type { Upstream } from "../../src/upstream/upstream.js";

const upstream = { name: "work" } as Upstream;

function session(identity?: string): HostSession {
  const made = new HostSession({} as Peer, "http");
  if (identity) made.identity = identity;
  return made;
}

const ERAS = { shape: "2025", runsAs: "2025" } as const;
const TASK = { taskId: "upstream-1", status: "working", createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString(), ttl: 60_000 };

describe("a relayed task's owner", () => {
  it("is the session that created it, for a host that did not sign in", () => {
    const tasks = new TaskRegistry();
    const [mine, other] = [session(), session()];
    const task = tasks.add(mine, upstream, "slow", TASK, ERAS);
    expect(task.id).toMatch(/^work\/[0-9a-f-]{36}$/);
    expect(tasks.ownedBy(mine, task.id)).toBe(task);
    expect(tasks.ownedBy(other, task.id)).toBeUndefined();
    expect(tasks.allOwnedBy(other)).toEqual([]);
    // The upstream's id is no key for a host.
    expect(tasks.ownedBy(mine, "upstream-1")).toBeUndefined();
  });

  it("is the identity a signed-in host is, so any of its sessions finds it, and its news goes to the latest", () => {
    const tasks = new TaskRegistry();
    const [first, second, stranger] = [session("https://issuer|ada"), session("https://issuer|ada"), session("https://issuer|bob")];
    const task = tasks.add(first, upstream, "slow", TASK, ERAS);
    expect(tasks.ownedBy(second, task.id)).toBe(task);
    expect(task.session).toBe(second);
    expect(tasks.ownedBy(stranger, task.id)).toBeUndefined();
    expect(tasks.ownedBy(session(), task.id)).toBeUndefined();
  });

  it("keeps a session's own tasks when it ends, for that host's next session that names them (same identity); never another identity's", () => {
    const tasks = new TaskRegistry();
    const local = session();
    const signedIn = session("https://issuer|ada");
    const localTask = tasks.add(local, upstream, "slow", { ...TASK, taskId: "a" }, ERAS);
    const identityTask = tasks.add(signedIn, upstream, "slow", { ...TASK, taskId: "b" }, ERAS);
    const other = session();
    // While its session lives, another session of the same identity does not get it.
    expect(tasks.ownedBy(other, localTask.id)).toBeUndefined();
    tasks.sessionEnded(local);
    tasks.sessionEnded(signedIn);
    // The upstream's news of it still reaches mcpx.
    expect(tasks.byUpstreamId(upstream, "a")).toBe(localTask);
    expect(tasks.ownedBy(session("https://issuer|bob"), localTask.id)).toBeUndefined();
    const back = session();
    expect(tasks.ownedBy(back, localTask.id)).toBe(localTask);
    expect(localTask.session).toBe(back);
    expect(tasks.allOwnedBy(back)).toEqual([localTask]);
    // Once its host is back, it is that session's alone again.
    expect(tasks.ownedBy(other, localTask.id)).toBeUndefined();
    expect(tasks.ownedBy(session("https://issuer|ada"), identityTask.id)).toBe(identityTask);
  });

  it("forgets a task once its ttl from creation has passed", () => {
    const tasks = new TaskRegistry();
    const mine = session();
    const long = Date.now() - 10_000;
    const task = tasks.add(mine, upstream, "slow", { ...TASK, createdAt: new Date(long).toISOString(), ttl: 5_000 }, ERAS);
    expect(tasks.ownedBy(mine, task.id)).toBeUndefined();
  });
});
