/**
 * Metrics that start late (serve --http does not load the SDK until /metrics is asked for, or
 * enough events wait for it): what happens before it is loaded reaches it afterwards, in order;
 * the first /metrics waits for it; a load that fails leaves a process that keeps serving,
 * without metrics.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LateTelemetry, LOAD_AT } from "../../src/telemetry/late.js";
import { NO_TELEMETRY, type Telemetry } from "../../src/telemetry/telemetry.js";
import { createLogger } from "../../src/util/log.js";
import { until } from "../helpers/until.js";

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
  it("loads nothing until /metrics is asked for; that request waits for the SDK, which gets what came before, in order", async () => {
    let load!: (telemetry: Telemetry) => void;
    let asked = 0;
    const real = recording();
    const late = new LateTelemetry(
      () => {
        asked += 1;
        return new Promise((resolve) => (load = resolve));
      },
      true,
      quiet,
    );
    late.sessionOpened("http");
    late.callEnded("fs", "read_file", "ok", 3);
    expect(asked).toBe(0);
    const scraped = get(late.prometheus!);
    await until(() => asked === 1, "the SDK asked for");
    load(real);
    expect(await scraped).toMatchObject({ status: 200, text: "session http\ncall fs.read_file ok" });
    late.callEnded("fs", "write_file", "refused", 9);
    expect(real.heard).toEqual(["session http", "call fs.read_file ok", "call fs.write_file refused"]);
    expect(await get(late.prometheus!)).toMatchObject({ status: 200, text: real.heard.join("\n") });
    expect(asked).toBe(1);
  });

  it("loads the SDK once LOAD_AT events wait for it, so what waits stays bounded", async () => {
    let asked = 0;
    const real = recording();
    const late = new LateTelemetry(
      async () => {
        asked += 1;
        return real;
      },
      false,
      quiet,
    );
    for (let i = 0; i < LOAD_AT - 1; i++) late.callEnded("fs", "read_file", "ok", 1);
    expect(late.started).toBe(false);
    late.callEnded("fs", "read_file", "ok", 1);
    expect(late.started).toBe(true);
    await late.start();
    expect(real.heard).toHaveLength(LOAD_AT);
    expect(asked).toBe(1);
  });

  it("a load that fails keeps the process serving, without metrics", async () => {
    const late = new LateTelemetry(() => Promise.reject(new Error("no SDK here")), true, quiet);
    late.callEnded("fs", "read_file", "ok", 3);
    expect(await get(late.prometheus!)).toMatchObject({ status: 503 });
    await expect(late.shutdown()).resolves.toBeUndefined();
  });

  it("shuts down without loading an SDK nobody asked for", async () => {
    let asked = 0;
    const late = new LateTelemetry(
      async () => {
        asked += 1;
        return recording();
      },
      true,
      quiet,
    );
    late.callEnded("fs", "read_file", "ok", 3);
    await late.shutdown();
    expect(asked).toBe(0);
  });

  it("serves no /metrics where none was asked for", () => {
    expect(new LateTelemetry(async () => recording(), false, quiet).prometheus).toBeUndefined();
  });
});
