/**
 * Design rule 5 for script runs: the calls one run makes are that one call, whichever of them
 * asked (issue 15, item 4). Two of a run's calls in flight on one upstream used to make a
 * question the host's (a host's mcpx__exec: no -32042 for its URL questions) or nobody's (a
 * command's run, which has no session: its exit-75 document could not find it). Calls of two
 * runs, or of a run and a direct call, still prove nothing more than before.
 */
import { describe, expect, it } from "vitest";
import { attribute, callOf, hostOf } from "../../src/host/attribution.js";
import { callOfRun } from "../../src/host/script-run.js";
import { HostSession, type CallerContext } from "../../src/host/session.js";
import { Peer } from "../../src/rpc/peer.js";
import { channelPair } from "../helpers/memory-channel.js";

const session = (): HostSession => new HostSession(new Peer(channelPair()[0], { request: async () => ({}), notification: () => {} }), "http");

describe("attribution of a script run's calls", () => {
  it("two calls of a command's run (no session) are that run's call: its call id is proven", () => {
    const run: CallerContext = { callId: "call-1" };
    const attribution = attribute([callOfRun(run, "search_issues"), callOfRun(run, "choose")], undefined);
    expect(attribution.level).toBe("call");
    expect(callOf(attribution)).toBe(run);
    expect(callOf(attribution)?.callId).toBe("call-1");
  });

  it("two calls of a host's mcpx__exec are that request's call, with its -32042 hook, on a connection the host does not own", () => {
    const host = session();
    const blocked: unknown[] = [];
    const run: CallerContext = { session: host, requestId: 7, urlBlocked: (entry) => blocked.push(entry) };
    const attribution = attribute([callOfRun(run, "a"), callOfRun(run, "b")], undefined);
    expect(callOf(attribution)).toBe(run);
    expect(hostOf(attribution)).toBe(host);
    callOf(attribution)?.urlBlocked?.({ questionId: "q", elicitation: {} });
    expect(blocked).toHaveLength(1);
  });

  it("calls of two runs, or of a run and a direct call, are no one call", () => {
    const host = session();
    const one: CallerContext = { session: host, requestId: 1 };
    const two: CallerContext = { session: host, requestId: 2 };
    expect(attribute([callOfRun(one, "a"), callOfRun(two, "a")], undefined).level).toBe("host");
    expect(attribute([callOfRun(one, "a"), { session: host, requestId: 3, tool: "a" }], undefined).level).toBe("host");
    expect(attribute([callOfRun({ callId: "x" }, "a"), callOfRun({ callId: "y" }, "a")], undefined).level).toBe("none");
  });
});
