/**
 * How a stdio server's process ended, as one reason told alike to whoever learns of it first:
 * the channel's close, or a message that could not be written because the pipe had closed. A
 * process closes its pipes as it exits, so on a busy machine a write can fail (EPIPE) before
 * mcpx has seen the exit; the sender then waits a short while for the exit's reason (with the
 * stderr line that says what is wrong) rather than report less. Pure but for that wait's timer.
 */
import { GatewayError } from "../protocol/errors.js";
import { within } from "../util/sleep.js";
import { saysWhatIsWrong, TAIL_LINES } from "./stderr-tail.js";

/** A reason quotes at most this much of a stderr line. */
const MAX_QUOTED = 300;

export class ProcessEnd {
  /** The last stderr line that said what is wrong; the exit's reason quotes it. */
  #wrong: string | undefined;
  /** Lines since it: one long before the exit (as far back as a tail keeps) is not its cause. */
  #sinceWrong = 0;
  #how: string | undefined;
  #told: GatewayError | undefined;
  #tell: (reason: GatewayError) => void = () => {};
  readonly #reason = new Promise<GatewayError>((resolve) => {
    this.#tell = resolve;
  });
  /** The one bounded wait for the reason that senders share (a second sender does not wait again). */
  #waited: Promise<GatewayError | undefined> | undefined;

  /** A line the process wrote to stderr. */
  heard(line: string): void {
    this.#sinceWrong++;
    if (saysWhatIsWrong(line)) {
      this.#wrong = cut(line.trim());
      this.#sinceWrong = 0;
    }
  }

  /** The process exited; its reason is told once the rest of its stderr is read (`tell`). */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.#how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  }

  /** Its stderr is read to its end, or waited for long enough: the reason, now given to whoever waits for it. */
  tell(): GatewayError {
    if (!this.#told) {
      const why = this.#wrong && this.#sinceWrong < TAIL_LINES ? `: ${this.#wrong}` : "";
      this.#told = new GatewayError("UPSTREAM_EXITED", `the server process ${this.#how ?? "ended"}${why}`);
      this.#tell(this.#told);
    }
    return this.#told;
  }

  /**
   * Why a message could not be sent: the exit's reason, waited for at most `waitMs`; undefined
   * when none was told by then (a process that closed its stdin and lives on).
   */
  whyGone(waitMs: number): Promise<GatewayError | undefined> {
    if (this.#told) return Promise.resolve(this.#told);
    this.#waited ??= within(this.#reason, waitMs, undefined);
    return this.#waited;
  }
}

function cut(text: string): string {
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED - 1)}…` : text;
}
