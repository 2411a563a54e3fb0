/**
 * The audit trail's filter as `mcpx audit` and `GET /v1/audit` take it: `since` (a duration
 * back from now, `90s`, `30m`, `12h`, `7d`, or an ISO 8601 time), `server`, `tool`, `session`, `profile`.
 * Pure: `now` is given.
 */
import type { AuditFilter } from "./audit-store.js";

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The filter, or why a value is not one. */
export function auditFilter(
  given: { since?: string; server?: string; tool?: string; session?: string; profile?: string },
  now: number,
): AuditFilter | { problem: string } {
  const filter: AuditFilter = {};
  if (given.since !== undefined) {
    const ago = /^(\d+)([smhd])$/.exec(given.since);
    const at = ago ? now - Number(ago[1]) * UNITS[ago[2]!]! : Date.parse(given.since);
    if (!Number.isFinite(at)) return { problem: `since must be a duration such as 30m, 12h or 7d, or an ISO 8601 time (got ${JSON.stringify(given.since)})` };
    filter.sinceMs = at;
  }
  if (given.server !== undefined) filter.server = given.server;
  if (given.tool !== undefined) filter.tool = given.tool;
  if (given.session !== undefined) filter.hostSession = given.session;
  if (given.profile !== undefined) filter.profile = given.profile;
  return filter;
}
