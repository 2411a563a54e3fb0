/** Which brokers are alive, on one machine: the process that owns a question or follows a task still runs. */
import { processAlive } from "../../util/process.js";
import type { Liveness, Owner } from "../store-api.js";

export const processLiveness: Liveness = {
  // A process is alive while it runs: there is nothing to announce, nor to take back.
  join: () => async () => {},
  alive: async (owner: Owner) => processAlive(owner.pid),
  // Instances that hand requests to each other share a store across machines (Redis): here, none do.
  advertise: () => {},
  addressOf: async () => undefined,
};
