/**
 * What a command that reports upstream state waits for: every upstream ready, or down with its
 * reason. The gateway's start is only the first attempt; a server that failed at once may be
 * restarting by the time the others are up, and `starting` with no reason would be a wrong report.
 */
import type { Gateway } from "../host/gateway.js";
import type { Upstream } from "../upstream/upstream.js";
import { within } from "../util/sleep.js";

/**
 * How long an attempt may take past the startup timeout: the stdio probe and `initialize` each
 * have the timeout, and a process that did not answer is given a few seconds to stop.
 */
const STOP_GRACE_MS = 5_000;
const MAX_ROUNDS = 5;

/** Wait until every upstream is ready or down (bounded); resolves with how long the bound was. */
export async function settled(gateway: Gateway): Promise<number> {
  const upstreams = gateway.upstreams;
  const bound = 2 * gateway.config.limits.startupTimeoutSeconds * 1000 + STOP_GRACE_MS;
  const all = async (): Promise<void> => {
    await gateway.start();
    // One may begin a restart while another is waited for: again, until none is starting at once
    // (a few rounds at most: each waits for real attempts, and the bound covers them all).
    for (let round = 0; round < MAX_ROUNDS && upstreams.some((upstream) => upstream.state === "starting"); round++) {
      await Promise.all(upstreams.map((upstream) => upstream.settled()));
    }
  };
  await within(all(), bound, undefined);
  return bound;
}

/** Why a server still `starting` after the wait has no reason yet: how long it has had. */
export function stillStarting(upstream: Upstream, boundMs: number): string | undefined {
  return upstream.state === "starting" ? `neither up nor down after ${Math.round(boundMs / 1000)} s` : undefined;
}
