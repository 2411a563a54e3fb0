/**
 * The one tolerance mcpx allows in the RFC 8414 §3.3 issuer check: authorization-server metadata
 * whose `issuer` is another path on the very origin it was fetched from. Servers written to the
 * 2025 drafts do this (metadata at the root naming `/oauth` or `/tenant1` as issuer, or the
 * reverse), and the earlier conformance suites test exactly that. Another origin is never
 * accepted: that is the mix-up the check exists for (alpha suites: auth/metadata-issuer-mismatch).
 */
import { IssuerMismatchError } from "@modelcontextprotocol/client";

/** Whether `error` is a metadata issuer mismatch within one origin (mcpx then signs in without that check). */
export function sameOriginIssuerMismatch(error: unknown): error is IssuerMismatchError {
  if (!(error instanceof IssuerMismatchError) || error.kind !== "metadata") return false;
  const { expected, received } = error;
  if (expected === undefined || received === undefined || !URL.canParse(expected) || !URL.canParse(received)) return false;
  return new URL(expected).origin === new URL(received).origin;
}
