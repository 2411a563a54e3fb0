/**
 * A fetch that carries the upstream's access token and, when the server refuses it, gets a new
 * one and sends the request again: once after a `401` (refresh or sign-in), and up to
 * MAX_STEP_UPS times after a `403 insufficient_scope` (a sign-in for more scopes), and once
 * after a DPoP `use_dpop_nonce` challenge with the nonce the server gave (RFC 9449 §9). Any other
 * answer, and a refusal after that, is the caller's to report.
 */
import type { HttpFetch, RequestInit } from "../http-client.js";
import type { UpstreamAuthorizer } from "./authorizer.js";

/**
 * The SDK's helpers and the step-up limit, imported when a request is authorized: an authorizer
 * has loaded both by then (sign-in.ts), and a process with no server to sign in to never does.
 */
const helpers = async () => {
  const [{ extractWWWAuthenticateParams, isDpopNonceChallenge }, { MAX_STEP_UPS }] = await Promise.all([
    import("@modelcontextprotocol/client"),
    import("./authorizer.js"),
  ]);
  return { extractWWWAuthenticateParams, isDpopNonceChallenge, MAX_STEP_UPS };
};

export function authorizedFetch(fetch: HttpFetch, authorizer: UpstreamAuthorizer | undefined): HttpFetch {
  if (!authorizer) return fetch;
  return async (url, init) => {
    const { extractWWWAuthenticateParams, isDpopNonceChallenge, MAX_STEP_UPS } = await helpers();
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
      const refusal = refusalOf(response, extractWWWAuthenticateParams);
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

function refusalOf(response: Response, params: (response: Response) => { error?: string }): "unauthorized" | "insufficient_scope" | undefined {
  if (!response.headers.has("www-authenticate")) return undefined;
  if (response.status === 401) return "unauthorized";
  if (response.status === 403 && params(response).error === "insufficient_scope") return "insufficient_scope";
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
