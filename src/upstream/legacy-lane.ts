/**
 * Following the caller's era: a second, legacy connection to a server that speaks both eras, for
 * the calls of hosts that speak a legacy revision.
 *
 * A 2026-07-28 connection asks its caller through `input_required` rounds, which mcpx turns into
 * questions for any host; but a server may still ask the 2025 way (an `elicitation/create` or
 * `sampling/createMessage` request during the call), and that only a legacy connection can carry.
 * So, as the Go mcpx's `protocol: "follow"` did, a legacy host's calls to a dual-era server go on
 * a legacy connection of their own, and everything else on the modern one. The lane is opened on
 * the first legacy call. It is given up (those calls then go on the modern connection, as they
 * would to a modern-only server) when the server does not take `initialize`, or when over HTTP it
 * answers without a session: a sessionless legacy endpoint cannot send a request and hear its
 * answer, so it could ask nothing, while the modern connection can still ask through rounds.
 */
import type { Logger } from "../util/log.js";
import { within } from "../util/sleep.js";
import { legacyLaneRefused, refuseLegacyLane } from "./era-cache.js";

/**
 * How long a legacy host's call waits for the lane to open: a server slow to answer (or deaf to)
 * `initialize` must not hold the call; it goes on the modern connection, and the lane keeps
 * opening for the calls after it.
 */
const OPEN_WAIT_MS = 5_000;

/** What the lane needs of a connection (an `Upstream`, kept opaque to avoid a cycle). */
export interface LaneConnection {
  readonly state: string;
  /** Over HTTP, the legacy handshake gave no session: the server cannot ask anything on it. */
  readonly sessionless: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The methods of a caller's call: what it may be asked during. The rest stays on the modern connection. */
export const LANE_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read", "completion/complete"]);

export class LegacyLane<C extends LaneConnection> {
  #connection: C | undefined;
  #opening: Promise<C | undefined> | undefined;
  /** The server showed it cannot serve a useful legacy connection; not tried again. */
  #givenUp = false;

  constructor(
    /** The server's key in the era cache: a server that refused a lane is not asked again. */
    private readonly key: string,
    private readonly open: () => C,
    private readonly log: Logger,
    /** Said once the lane is up (to bring it the state hosts set: the log level). */
    private readonly opened: (connection: C) => Promise<void>,
  ) {}

  /** The legacy connection, opened on first use; undefined when there is none to use now. */
  async connection(): Promise<C | undefined> {
    if (this.#givenUp || legacyLaneRefused(this.key)) return undefined;
    this.#opening ??= this.#open();
    const connection = await within(this.#opening, OPEN_WAIT_MS, undefined);
    // Down for a while (restarting): the modern connection serves meanwhile.
    return connection?.state === "ready" ? connection : undefined;
  }

  /** The lane if it is open and ready now (never opens it). */
  get ready(): C | undefined {
    return this.#connection?.state === "ready" ? this.#connection : undefined;
  }

  async stop(): Promise<void> {
    this.#givenUp = true;
    await this.#connection?.stop();
  }

  async #open(): Promise<C | undefined> {
    const connection = this.open();
    this.#connection = connection;
    await connection.start();
    const why =
      connection.state !== "ready"
        ? "the server did not take the legacy handshake"
        : connection.sessionless
          ? "its legacy endpoint gave no session, so it could not ask legacy hosts anything on it"
          : undefined;
    if (why) {
      this.#givenUp = true;
      refuseLegacyLane(this.key);
      this.#connection = undefined;
      await connection.stop();
      this.log.info(`legacy hosts' calls stay on the 2026-07-28 connection: ${why}`);
      return undefined;
    }
    this.log.info("the server speaks both eras: legacy hosts' calls go on a legacy connection of their own");
    await this.opened(connection).catch((error: unknown) => this.log.debug("could not bring the legacy connection up to date", { error }));
    return connection;
  }
}
