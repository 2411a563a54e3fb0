/**
 * Metrics whose SDK is still loading: `serve --http` starts serving without waiting for it
 * (its `/metrics` needs it, but not before the first scrape). What happens meanwhile waits
 * here, in order, and goes to the SDK once it is there; `/metrics` answers 503 until then.
 * Tracing is never late: a span cannot be made after its request, so load.ts waits for it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../util/log.js";
import { NO_TELEMETRY, type Telemetry } from "./telemetry.js";

export class LateTelemetry implements Telemetry {
  #ready: Telemetry | undefined;
  #waiting: Array<(telemetry: Telemetry) => void> = [];
  readonly #loaded: Promise<void>;
  readonly prometheus?: (request: IncomingMessage, response: ServerResponse) => void;

  constructor(loading: Promise<Telemetry>, servesPrometheus: boolean, log: Logger) {
    this.#loaded = loading.then(
      (telemetry) => this.#arrived(telemetry),
      (error: unknown) => {
        log.warn("metrics could not start; none are kept", { error });
        this.#arrived(NO_TELEMETRY);
      },
    );
    if (servesPrometheus) this.prometheus = (request, response) => this.#serveMetrics(request, response);
  }

  /** Resolves once the SDK is there (or failed to load). */
  get loaded(): Promise<void> {
    return this.#loaded;
  }

  #arrived(telemetry: Telemetry): void {
    this.#ready = telemetry;
    for (const event of this.#waiting.splice(0)) event(telemetry);
  }

  #send(event: (telemetry: Telemetry) => void): void {
    if (this.#ready) event(this.#ready);
    else this.#waiting.push(event);
  }

  #serveMetrics(request: IncomingMessage, response: ServerResponse): void {
    const ready = this.#ready?.prometheus;
    if (ready) return ready(request, response);
    response.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "1" });
    response.end(this.#ready ? "metrics could not start (see the log)\n" : "metrics are starting; try again in a second\n");
  }

  callEnded(...args: Parameters<Telemetry["callEnded"]>): void {
    this.#send((telemetry) => telemetry.callEnded(...args));
  }

  question(...args: Parameters<Telemetry["question"]>): void {
    this.#send((telemetry) => telemetry.question(...args));
  }

  upstreamRestarted(...args: Parameters<Telemetry["upstreamRestarted"]>): void {
    this.#send((telemetry) => telemetry.upstreamRestarted(...args));
  }

  sessionOpened(...args: Parameters<Telemetry["sessionOpened"]>): void {
    this.#send((telemetry) => telemetry.sessionOpened(...args));
  }

  sessionClosed(...args: Parameters<Telemetry["sessionClosed"]>): void {
    this.#send((telemetry) => telemetry.sessionClosed(...args));
  }

  async shutdown(): Promise<void> {
    await this.#loaded;
    await this.#ready?.shutdown();
  }
}
