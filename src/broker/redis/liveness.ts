/**
 * Which instances are alive: each joined one keeps the key `alive:<instance>` (its pid, and the
 * address it advertised for the cluster's hops after a space) with a short expiry, refreshed well within it, so an instance that dies (or loses Redis for longer
 * than the expiry) is gone for the others within that time, and one that leaves is gone at once.
 * Right after Redis restarted, a missing key is not yet a death (restart-grace.ts).
 */
import { GatewayError } from "../../protocol/errors.js";
import type { Liveness, Owner } from "../store-api.js";
import type { RedisLink } from "./link.js";
import { ALIVE, NOTE_RESTART } from "./restart-grace.js";

export interface HeartbeatTimings {
  /** How often a joined instance renews its key. */
  refreshMs: number;
  /** How long the key lives without renewal: an instance silent for longer is gone. */
  expireMs: number;
}

export const DEFAULT_HEARTBEAT: HeartbeatTimings = { refreshMs: 2_000, expireMs: 6_000 };

export class RedisLiveness implements Liveness {
  readonly #beats = new Map<() => void, NodeJS.Timeout>();
  /** Each joined instance's beat, and the address it advertised. */
  readonly #beatOf = new Map<string, () => void>();
  readonly #addresses = new Map<string, string>();

  constructor(
    private readonly link: RedisLink,
    private readonly timings: HeartbeatTimings,
  ) {
    // Back from a lost connection: renew at once rather than at the next beat, so no other
    // instance takes this one for gone in between; and note a restart of Redis, if that is what it was.
    link.client.on("ready", () => {
      for (const beat of this.#beats.keys()) beat();
      this.#noteRestart();
    });
  }

  #noteRestart(): void {
    // Failing (Redis away again) is harmless: ALIVE notes it too.
    this.link.run(NOTE_RESTART).catch(() => {});
  }

  join(owner: Owner): () => Promise<void> {
    const key = this.link.key(`alive:${owner.instance}`);
    const beat = (): void => {
      // A beat that fails (Redis away) is retried at the next; unwritable() says why meanwhile.
      const address = this.#addresses.get(owner.instance);
      const value = address === undefined ? String(owner.pid) : `${owner.pid} ${address}`;
      this.link.client.set(key, value, "PX", this.timings.expireMs).catch(() => {});
    };
    beat();
    const timer = setInterval(beat, this.timings.refreshMs);
    timer.unref();
    this.#beats.set(beat, timer);
    this.#beatOf.set(owner.instance, beat);
    return async () => {
      clearInterval(timer);
      this.#beats.delete(beat);
      this.#beatOf.delete(owner.instance);
      this.#addresses.delete(owner.instance);
      await this.link.call((client) => client.del(key));
    };
  }

  async alive(owner: Owner): Promise<boolean> {
    return this.#alive(owner.instance);
  }

  async #alive(instance: string): Promise<boolean> {
    return (await this.link.run(ALIVE, instance, this.timings.expireMs)) === 1;
  }

  advertise(instance: string, address: string): void {
    this.#addresses.set(instance, address);
    this.#beatOf.get(instance)?.();
  }

  async addressOf(instance: string): Promise<string | undefined> {
    const value = await this.link.call((client) => client.get(this.link.key(`alive:${instance}`)));
    // Redis restarted moments ago and the instance has not written its key again yet: not gone, not known.
    if (value === null && (await this.#alive(instance))) {
      throw new GatewayError(
        "STORE_UNAVAILABLE",
        `the Redis store ${this.link.where} restarted moments ago and has no address for instance ${instance} yet; it writes it again once reconnected`,
        { where: this.link.where },
      );
    }
    const space = value?.indexOf(" ") ?? -1;
    return value && space > 0 ? value.slice(space + 1) : undefined;
  }

  /** Stop every heartbeat of this store (it is closing); the keys lapse by themselves. */
  stop(): void {
    for (const timer of this.#beats.values()) clearInterval(timer);
    this.#beats.clear();
  }
}
