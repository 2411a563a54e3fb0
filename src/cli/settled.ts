/**
 * What a command that reports upstream state waits for: every upstream ready, or down with its
 * reason. The gateway's start is only the first attempt; a server that failed at once may be
 * restarting by the time the others are up, and `starting` with no reason would be a wrong report.
 */
import type { Gateway } from "../host/gateway.js";
import { within } from "../util/sleep.js";

export async function settled(gateway: Gateway): Promise<void> {
  await gateway.start();
  // Each attempt is bounded by the startup timeout; this bounds the wait for the last one.
  const bound = gateway.config.limits.startupTimeoutSeconds * 1000 + 1000;
  await within(Promise.all(gateway.upstreams.map((upstream) => upstream.settled())), bound, undefined);
}
