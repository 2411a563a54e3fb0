/**
 * mcpx's metrics, on one meter whatever reads them (OTLP, `/metrics`):
 *
 *   mcpx.tool.calls               counter    server, tool, outcome (ok | error | failed | refused)
 *   mcpx.tool.call.duration       histogram  s; server, tool, outcome
 *   mcpx.questions.asked          counter    server
 *   mcpx.questions.open           gauge      server (an up-down counter)
 *   mcpx.questions.answered       counter    server, surface (cli, web, rest, host, rule, script, …), action
 *   mcpx.question.answer.duration histogram  s; server, surface: from asked to answered
 *   mcpx.questions.expired        counter    server
 *   mcpx.upstream.restarts        counter    server
 *   mcpx.host.sessions            gauge      transport (stdio | http; an up-down counter)
 *   mcp.server.session.duration   histogram  s; network.transport (the MCP semantic conventions' own)
 *
 * A question is counted by the process that asked it (other processes may answer it too).
 */
import type { Counter, Histogram, Meter, UpDownCounter } from "@opentelemetry/api";
import type { CallOutcome, QuestionEvent } from "../telemetry.js";

/** The MCP semantic conventions' buckets for an operation's duration, in seconds. */
const CALL_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** A person takes seconds to hours. */
const ANSWER_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200];
const SESSION_BUCKETS = [1, 10, 60, 300, 1800, 3600, 14400, 86400];

export class Instruments {
  readonly #calls: Counter;
  readonly #callDuration: Histogram;
  readonly #asked: Counter;
  readonly #open: UpDownCounter;
  readonly #answered: Counter;
  readonly #answerDuration: Histogram;
  readonly #expired: Counter;
  readonly #restarts: Counter;
  readonly #sessions: UpDownCounter;
  readonly #sessionDuration: Histogram;
  /** The questions counted open, by id, with their server: each is closed once. */
  readonly #openQuestions = new Map<string, string>();

  constructor(meter: Meter) {
    this.#calls = meter.createCounter("mcpx.tool.calls", { description: "Tool calls mcpx made, by how they ended" });
    this.#callDuration = meter.createHistogram("mcpx.tool.call.duration", {
      description: "How long tool calls took, a person's approval included",
      unit: "s",
      advice: { explicitBucketBoundaries: CALL_BUCKETS },
    });
    this.#asked = meter.createCounter("mcpx.questions.asked", { description: "Questions upstreams asked (elicitation, sampling, sign-ins, approvals)" });
    this.#open = meter.createUpDownCounter("mcpx.questions.open", { description: "Questions waiting for an answer" });
    this.#answered = meter.createCounter("mcpx.questions.answered", { description: "Questions answered, by the surface that answered" });
    this.#answerDuration = meter.createHistogram("mcpx.question.answer.duration", {
      description: "From a question asked to its answer",
      unit: "s",
      advice: { explicitBucketBoundaries: ANSWER_BUCKETS },
    });
    this.#expired = meter.createCounter("mcpx.questions.expired", { description: "Questions nobody answered in time (answered cancel)" });
    this.#restarts = meter.createCounter("mcpx.upstream.restarts", { description: "Restarts of upstream servers after a crash or a failed start" });
    this.#sessions = meter.createUpDownCounter("mcpx.host.sessions", { description: "Host sessions open" });
    this.#sessionDuration = meter.createHistogram("mcp.server.session.duration", {
      description: "How long host sessions lasted",
      unit: "s",
      advice: { explicitBucketBoundaries: SESSION_BUCKETS },
    });
  }

  callEnded(server: string, tool: string, outcome: CallOutcome, durationMs: number): void {
    const attributes = { server, tool, outcome };
    this.#calls.add(1, attributes);
    this.#callDuration.record(durationMs / 1000, attributes);
  }

  question(event: QuestionEvent): void {
    if (event.state === "pending") {
      if (this.#openQuestions.has(event.id)) return;
      this.#openQuestions.set(event.id, event.server);
      this.#asked.add(1, { server: event.server });
      this.#open.add(1, { server: event.server });
      return;
    }
    const wasOpen = this.#openQuestions.delete(event.id);
    if (wasOpen) this.#open.add(-1, { server: event.server });
    // Settled at once (a policy rule): asked and answered in one.
    else this.#asked.add(1, { server: event.server });
    if (event.state === "expired") this.#expired.add(1, { server: event.server });
    if (event.state !== "answered") return;
    const surface = surfaceOf(event.by);
    this.#answered.add(1, { server: event.server, surface, action: event.action ?? "unknown" });
    if (event.waitedMs !== undefined) this.#answerDuration.record(event.waitedMs / 1000, { server: event.server, surface });
  }

  upstreamRestarted(server: string): void {
    this.#restarts.add(1, { server });
  }

  sessionOpened(transport: "stdio" | "http"): void {
    this.#sessions.add(1, { transport });
  }

  sessionClosed(transport: "stdio" | "http", openMs: number): void {
    this.#sessions.add(-1, { transport });
    this.#sessionDuration.record(openMs / 1000, { "network.transport": transport === "stdio" ? "pipe" : "tcp" });
  }
}

/** `host:<session>` is `host`, `rule:2` is `rule`: a label of few values. */
function surfaceOf(by: string | undefined): string {
  if (!by) return "unknown";
  return by.split(":")[0] || "unknown";
}
