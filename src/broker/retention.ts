/**
 * What the store keeps, and for how long. Settled questions and finished calls (with their
 * logs) go after the retention period; a person-only answer's content goes as soon as it is
 * delivered, or once the process that would deliver it is gone (design rule 9). Forgetting is
 * followed by a checkpoint, so the zeroed pages replace the old bytes on disk; when a reader in
 * another process keeps the checkpoint from finishing, it is owed and tried again next time.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../util/log.js";
import type { Clock } from "./clock.js";
import type { BrokerStore, Owner } from "./store-api.js";

export class Retention {
  #compactOwed = false;

  constructor(
    private readonly store: BrokerStore,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** Remove settled questions and finished calls (and their logs) older than `retentionDays`. */
  async prune(retentionDays: number): Promise<void> {
    const before = this.clock.now() - retentionDays * 86_400_000;
    const pruned = await this.store.questions.prune(before);
    const calls = await this.store.calls.prune(before);
    await this.store.tasks.prune(before);
    await this.store.audit.prune(before);
    for (const id of calls) rmSync(join(this.store.stateDir, "calls", `${id}.log`), { force: true });
    if (pruned + calls.length === 0) return;
    this.log.info("pruned old questions and calls", { questions: pruned, calls: calls.length, retentionDays });
    await this.#compact();
  }

  /** The answer was handed over: a person-only answer's content is forgotten now (action, who and when stay). */
  async forgetDelivered(id: string): Promise<void> {
    if (!(await this.store.questions.forgetPersonOnlyContent(id))) return;
    this.log.debug("forgot a person-only answer's content after delivering it", { question: id });
    await this.#compact();
  }

  /** Forget the held person-only answers whose waiting process `whose` names: it will never deliver them. */
  async forgetHeldSecrets(whose: (owner: Owner) => Promise<boolean>): Promise<void> {
    let forgot = 0;
    for (const held of await this.store.questions.heldSecrets()) {
      if ((await whose(held)) && (await this.store.questions.forgetPersonOnlyContent(held.id))) forgot += 1;
    }
    if (forgot > 0) {
      this.log.info("forgot person-only answers that their waiting process can no longer deliver", { answers: forgot });
      await this.#compact();
    } else if (this.#compactOwed) {
      await this.#compact();
    }
  }

  /** Checkpoint the WAL into the file and truncate it; if a reader keeps it from finishing, retry at the next sweep. */
  async #compact(): Promise<void> {
    this.#compactOwed = !(await this.store.compact());
  }
}
