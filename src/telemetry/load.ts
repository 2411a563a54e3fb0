/**
 * Telemetry for a serving process: the no-op unless the `OTEL_*` variables ask for export or
 * the process serves `/metrics` (`serve --http`). The SDK is imported here and only here, at
 * run time: the commands that never serve (`mcpx search`, `ls`, …) never load it. Without
 * traces the process does not wait for it to load, and without any export it is loaded only
 * when `/metrics` is first asked for (late.ts).
 */
import type { Logger } from "../util/log.js";
import { LateTelemetry } from "./late.js";
import { otelSettings } from "./settings.js";
import { NO_TELEMETRY, type Telemetry } from "./telemetry.js";

export interface TelemetryWanted {
  /** The process serves `/metrics` (Prometheus text), whatever `OTEL_*` says. */
  prometheus: boolean;
  env?: NodeJS.ProcessEnv;
  log: Logger;
}

export async function loadTelemetry(wanted: TelemetryWanted): Promise<Telemetry> {
  const settings = otelSettings(wanted.env ?? process.env);
  for (const warning of settings.warnings) wanted.log.warn(warning);
  if (!settings.traces && !settings.metrics && !wanted.prometheus) return NO_TELEMETRY;
  const load = (): Promise<Telemetry> =>
    import("./otel/start.js").then(({ startOtel }) => startOtel(settings, { prometheus: wanted.prometheus, log: wanted.log }));
  // Spans need the SDK from the first request on; metrics can catch up (late.ts), and with no
  // export configured, wait until /metrics is asked for.
  if (settings.traces) return load();
  const late = new LateTelemetry(load, wanted.prometheus, wanted.log);
  if (settings.metrics) void late.start();
  return late;
}
