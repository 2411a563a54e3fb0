/**
 * Secrets every instance shares (the API token, the key that signs `requestState` and page
 * codes): `secret:<name>`, created by whichever instance asks first (SET NX) and read by the
 * others, in one command. Anyone who can read the Redis database can read them: it must be
 * as private as the state directory (a password, TLS or loopback, no other tenant).
 */
import { randomBytes } from "node:crypto";
import type { SharedSecrets } from "../store-api.js";
import type { RedisLink } from "./link.js";

export class RedisSecrets implements SharedSecrets {
  constructor(private readonly link: RedisLink) {}

  async get(name: string): Promise<string> {
    const candidate = randomBytes(32).toString("hex");
    // SET … NX GET: the value already there, or nil when this one was set.
    const existing = await this.link.call((client) => client.set(this.link.key(`secret:${name}`), candidate, "NX", "GET"));
    return existing ?? candidate;
  }

  whereIs(name: string): string {
    return `the Redis key ${this.link.key(`secret:${name}`)} of ${this.link.where} (the commands given the config read it there: \`mcpx link\` mints with it)`;
  }
}
