/**
 * A fetch that carries the upstream's access token and, when the server refuses it, gets a new
 * one and sends the request again: once after a `401` (refresh or sign-in), and up to
 * MAX_STEP_UPS times after a `403 insufficient_scope` (a sign-in for more scopes), and once
 * after a DPoP `use_dpop_nonce` challenge with the nonce the server gave (RFC 9449 §9). Any other
 * answer, and a refusal after that, is the caller's to report.
 */
import { extractWWWAuthenticateParams, isDpopNonceChallenge } from "@modelcontextprotocol/client";
import type { HttpFetch, RequestInit } from "../http-client.js";
import { MAX_STEP_UPS, type UpstreamAuthorizer } from "./authorizer.js";

export function authorizedFetch(fetch: HttpFetch, authorizer: UpstreamAuthorizer | undefined): HttpFetch {
  if (!authorizer) return fetch;
  return async (url, init) => {
    let signedIn = false;
    let stepUps = 0;
    let nonceGiven = false;
    for (;;) {
      const response = await fetch(url, { ...init, headers: { ...init.headers, ...(await authorizer.headers(url, init.method)) } });
      await authorizer.observe(response, url);
      if (!nonceGiven && isDpopNonceChallenge(response) && response.headers.has("dpop-nonce")) {
        nonceGiven = true;
        await response.body?.cancel().catch(() => {});
        continue;
      }
      const refusal = refusalOf(response);
      if (refusal === "unauthorized" && !signedIn) {
        signedIn = true;
        await response.body?.cancel().catch(() => {});
        await whileNotAborted(authorizer.unauthorized(response, init.related), init);
        continue;
      }
      if (refusal === "insufficient_scope" && stepUps < MAX_STEP_UPS && authorizer.mayStepUp()) {
        stepUps++;
        await response.body?.cancel().catch(() => {});
        await whileNotAborted(authorizer.insufficientScope(response, init.related), init);
        continue;
      }
      if (refusal === undefined && response.ok) authorizer.accepted();
      return response;
    }
  };
}

function refusalOf(response: Response): "unauthorized" | "insufficient_scope" | undefined {
  if (!response.headers.has("www-authenticate")) return undefined;
  if (response.status === 401) return "unauthorized";
  if (response.status === 403 && extractWWWAuthenticateParams(response).error === "insufficient_scope") return "insufficient_scope";
  return undefined;
}

/** The request's own stop (a cancelled call) ends its wait; the sign-in itself goes on for others. */
function whileNotAborted(flow: Promise<void>, init: RequestInit): Promise<void> {
  const signal = init.signal;
  if (!signal) return flow;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const stop = (): void => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    flow.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}
