/**
 * Metrics whose SDK is not loaded yet. Loading it costs about as much CPU as the rest of a
 * `serve --http` start, for a `/metrics` few processes are ever asked for; so unless an export
 * is configured (load.ts starts it at once), it is loaded when something needs it: the first
 * `/metrics` request (which waits for it, then is answered), or LOAD_AT events waiting (what
 * happens meanwhile waits here, in order, and goes to the SDK once it is there, so nothing is
 * lost and the wait stays bounded). A load that fails leaves a process that keeps serving,
 * without metrics (`/metrics` 503). Tracing is never late: a span cannot be made after its
 * request, so load.ts waits for it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../util/log.js";
import { NO_TELEMETRY, type Telemetry } from "./telemetry.js";

/** Events waiting for the SDK at most before it is loaded for them (each a few hundred bytes). */
export const LOAD_AT = 5_000;

export class LateTelemetry implements Telemetry {
  #ready: Telemetry | undefined;
  #waiting: Array<(telemetry: Telemetry) => void> = [];
  #loaded: Promise<void> | undefined;
  readonly prometheus?: (request: IncomingMessage, response: ServerResponse) => void;

  constructor(
    private readonly load: () => Promise<Telemetry>,
    servesPrometheus: boolean,
    private readonly log: Logger,
  ) {
    if (servesPrometheus) this.prometheus = (request, response) => void this.#serveMetrics(request, response);
  }

  /** Load the SDK now (once); resolves when it is there, or has failed to load. */
  start(): Promise<void> {
    this.#loaded ??= this.load().then(
      (telemetry) => this.#arrived(telemetry),
      (error: unknown) => {
        this.log.warn("metrics could not start; none are kept", { error });
        this.#arrived(NO_TELEMETRY);
      },
    );
    return this.#loaded;
  }

  /** Whether the SDK has been asked for. */
  get started(): boolean {
    return this.#loaded !== undefined;
  }

  #arrived(telemetry: Telemetry): void {
    this.#ready = telemetry;
    for (const event of this.#waiting.splice(0)) event(telemetry);
  }

  #send(event: (telemetry: Telemetry) => void): void {
    if (this.#ready) {
      event(this.#ready);
      return;
    }
    this.#waiting.push(event);
    if (this.#waiting.length >= LOAD_AT) void this.start();
  }

  async #serveMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
    await this.start();
    const ready = this.#ready?.prometheus;
    if (ready) {
      ready(request, response);
      return;
    }
    response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
    response.end("metrics could not start (see the log)\n");
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

  /** An SDK never asked for has nothing to flush: what waits for it goes with the process. */
  async shutdown(): Promise<void> {
    await this.#loaded;
    await this.#ready?.shutdown();
  }
}
