/**
 * What the store keeps, and for how long. Settled questions and finished calls (with their
 * logs) go after the retention period; a person-only answer's content goes as soon as it is
 * delivered, or once the process that would deliver it is gone (design rule 9). Forgetting is
 * followed by a checkpoint, so the zeroed pages replace the old bytes on disk; when a reader in
 * another process keeps the checkpoint from finishing, it is owed and tried again next time.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Logger } from "../util/log.js";
import type { Clock } from "./clock.js";
import type { QuestionStore } from "./store.js";

export class Retention {
  #compactOwed = false;

  constructor(
    private readonly store: QuestionStore,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** Remove settled questions and finished calls (and their logs) older than `retentionDays`. */
  prune(retentionDays: number): void {
    const before = this.clock.now() - retentionDays * 86_400_000;
    const pruned = this.store.prune(before);
    const calls = this.store.calls.prune(before);
    this.store.tasks.prune(before);
    this.store.audit.prune(before);
    for (const id of calls) rmSync(join(dirname(this.store.path), "calls", `${id}.log`), { force: true });
    if (pruned + calls.length === 0) return;
    this.log.info("pruned old questions and calls", { questions: pruned, calls: calls.length, retentionDays });
    this.#compact();
  }

  /** The answer was handed over: a person-only answer's content is forgotten now (action, who and when stay). */
  forgetDelivered(id: string): void {
    if (!this.store.forgetPersonOnlyContent(id)) return;
    this.log.debug("forgot a person-only answer's content after delivering it", { question: id });
    this.#compact();
  }

  /** Forget the held person-only answers whose waiting process `whose` names: it will never deliver them. */
  forgetHeldSecrets(whose: (instance: string, pid: number) => boolean): void {
    let forgot = 0;
    for (const held of this.store.heldSecrets()) {
      if (whose(held.instance, held.pid) && this.store.forgetPersonOnlyContent(held.id)) forgot += 1;
    }
    if (forgot > 0) {
      this.log.info("forgot person-only answers that their waiting process can no longer deliver", { answers: forgot });
      this.#compact();
    } else if (this.#compactOwed) {
      this.#compact();
    }
  }

  /** Checkpoint the WAL into the file and truncate it; if a reader keeps it from finishing, retry at the next sweep. */
  #compact(): void {
    this.#compactOwed = !this.store.compact();
  }
}
