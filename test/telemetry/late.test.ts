/**
 * Metrics that start late (serve --http does not wait for the SDK): what happens before it is
 * loaded reaches it afterwards, in order; `/metrics` says 503 with Retry-After until then; a
 * load that fails leaves a process that keeps serving, without metrics.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LateTelemetry } from "../../src/telemetry/late.js";
import { NO_TELEMETRY, type Telemetry } from "../../src/telemetry/telemetry.js";
import { createLogger } from "../../src/util/log.js";

const quiet = createLogger({}, "error", () => {});
let server: Server | undefined;
afterEach(() => server?.close());

/** A telemetry that writes down what it is told, and serves its record as its metrics. */
function recording(): Telemetry & { heard: string[] } {
  const heard: string[] = [];
  return {
    ...NO_TELEMETRY,
    heard,
    callEnded: (server, tool, outcome) => heard.push(`call ${server}.${tool} ${outcome}`),
    sessionOpened: (transport) => heard.push(`session ${transport}`),
    prometheus: (_request, response) => response.end(heard.join("\n")),
  };
}

async function get(handler: NonNullable<Telemetry["prometheus"]>): Promise<{ status: number; retryAfter: string | null; text: string }> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
  const answer = { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() };
  server.close();
  return answer;
}

describe("late telemetry", () => {
  it("hands what came before the SDK to it once loaded, in order, and /metrics waits for it", async () => {
    let load!: (telemetry: Telemetry) => void;
    const real = recording();
    const late = new LateTelemetry(new Promise((resolve) => (load = resolve)), true, quiet);
    late.sessionOpened("http");
    late.callEnded("fs", "read_file", "ok", 3);
    expect(await get(late.prometheus!)).toMatchObject({ status: 503, retryAfter: "1" });
    load(real);
    await late.loaded;
    late.callEnded("fs", "write_file", "refused", 9);
    expect(real.heard).toEqual(["session http", "call fs.read_file ok", "call fs.write_file refused"]);
    expect(await get(late.prometheus!)).toMatchObject({ status: 200, text: real.heard.join("\n") });
  });

  it("a load that fails keeps the process serving, without metrics", async () => {
    const late = new LateTelemetry(Promise.reject(new Error("no SDK here")), true, quiet);
    late.callEnded("fs", "read_file", "ok", 3);
    await late.loaded;
    expect(await get(late.prometheus!)).toMatchObject({ status: 503 });
    await expect(late.shutdown()).resolves.toBeUndefined();
  });

  it("serves no /metrics where none was asked for", () => {
    expect(new LateTelemetry(Promise.resolve(recording()), false, quiet).prometheus).toBeUndefined();
  });
});
