/**
 * The line `mcpx serve` prints once its upstreams have started or failed: which are up (with
 * their tool counts) and why the others are not, so a person sees it without reading the log.
 * Upstream text in it (a reason, a stderr line) is inert and cut short. Pure.
 */
import type { LeftOutServer } from "../config/types.js";
import type { Upstream } from "../upstream/upstream.js";
import { inert } from "./inert.js";

const MAX_WHY = 160;

export function startupSummary(upstreams: readonly Upstream[], leftOut: readonly LeftOutServer[] = []): string {
  const enabled = upstreams.filter((upstream) => upstream.state !== "disabled");
  if (upstreams.length === 0 && leftOut.length === 0) return "mcpx: no servers configured\n";
  const up = enabled.filter((upstream) => upstream.state === "ready");
  const parts = [`${up.length} of ${enabled.length} ${enabled.length === 1 ? "server" : "servers"} up${up.length ? `: ${up.map(upText).join(", ")}` : ""}`];
  const down = enabled.filter((upstream) => upstream.state === "down");
  if (down.length) parts.push(`down: ${down.map(downText).join(", ")}`);
  const starting = enabled.filter((upstream) => upstream.state === "starting");
  if (starting.length) parts.push(`still starting: ${starting.map((upstream) => inert(upstream.name)).join(", ")}`);
  const notRun = leftOut.filter((entry) => !entry.disabled);
  if (notRun.length) parts.push(`left out: ${notRun.map((entry) => inert(entry.name)).join(", ")}`);
  const disabled = [
    ...upstreams.filter((upstream) => upstream.state === "disabled").map((upstream) => inert(upstream.name)),
    // Disabled in the file and unable to run anyway (an unset variable): said here, once.
    ...leftOut.filter((entry) => entry.disabled).map((entry) => `${inert(entry.name)} (${inert(cut(entry.why))})`),
  ];
  if (disabled.length) parts.push(`disabled: ${disabled.join(", ")}`);
  const hint = down.length || notRun.length ? " (mcpx servers shows more)" : "";
  return `mcpx: ${parts.join("; ")}${hint}\n`;
}

function upText(upstream: Upstream): string {
  const tools = upstream.catalog.tools.length;
  return `${inert(upstream.name)} (${tools} ${tools === 1 ? "tool" : "tools"})`;
}

function downText(upstream: Upstream): string {
  const reason = upstream.reason ?? "down";
  // The line that says what is wrong, else the last one; not twice when the reason quotes it already.
  const said = (upstream.stderrTail.errorLines(1)[0] ?? upstream.stderrTail.lines(1)[0])?.trim();
  const why = said && !reason.includes(said) ? `${reason}: ${said}` : reason;
  return `${inert(upstream.name)} (${inert(cut(why))})`;
}

function cut(text: string): string {
  return text.length > MAX_WHY ? `${text.slice(0, MAX_WHY - 1)}…` : text;
}
