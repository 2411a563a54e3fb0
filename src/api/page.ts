/**
 * The web page for answering questions: `/` (the page), `/app.js` and `/style.css`.
 *
 * `GET /?token=<t>` (the URL mcpx prints) trades the token for an HttpOnly, SameSite=Strict
 * cookie and redirects to `/`, so the token leaves the address bar. The page itself is served
 * only with that cookie; without it, a page that says where to find the URL.
 *
 * The Content-Security-Policy allows nothing but this origin: no inline script, no foreign
 * image, frame, font or connection. A URL a question names is shown as text and opened only by
 * an explicit click (never an <a href>, never loaded, never prefetched).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { tokenMatches } from "../broker/token.js";
import { callerOf, TOKEN_COOKIE } from "./auth.js";
import { APP_JS } from "./page/app.js";
import { STYLE_CSS } from "./page/style.js";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const COMMON_HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "x-dns-prefetch-control": "off",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>mcpx questions</title>
<link rel="stylesheet" href="/style.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="top">
  <h1>mcpx questions</h1>
  <span id="status" class="status" role="status">connecting…</span>
</header>
<main>
  <p id="empty" class="empty">No questions are waiting. New ones appear here by themselves.</p>
  <section id="pending" aria-label="Questions waiting for an answer"></section>
  <section class="history">
    <h2>Settled</h2>
    <ul id="settled"></ul>
  </section>
</main>
</body>
</html>
`;

function unauthorizedHtml(tokenFile: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>mcpx questions: sign-in needed</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<main>
  <h1>This page needs the link mcpx printed</h1>
  <p>Open the URL that <code>mcpx serve --http</code> or <code>mcpx ui</code> printed when it started
  (the line <code>mcpx: questions at http://…/?token=…</code>). The token in it is kept in
  <code>${escapeHtml(tokenFile)}</code>, readable only by you.</p>
</main>
</body>
</html>
`;
}

export interface PageOptions {
  token: string;
  tokenFile: string;
}

/** Serve the page and its assets; false for paths that are not the page's. */
export async function servePage(request: IncomingMessage, response: ServerResponse, url: URL, options: PageOptions): Promise<boolean> {
  const asset = ASSETS[url.pathname];
  if (!asset && url.pathname !== "/") return false;
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed\n");
    return true;
  }
  if (asset) {
    response.writeHead(asset.body === "" ? 204 : 200, { ...COMMON_HEADERS, "content-type": asset.type });
    response.end(request.method === "HEAD" ? undefined : asset.body);
    return true;
  }
  const given = url.searchParams.get("token");
  if (given !== null) {
    if (!tokenMatches(options.token, given)) return unauthorized(response, options.tokenFile);
    response.writeHead(303, {
      ...COMMON_HEADERS,
      location: "/",
      "set-cookie": `${TOKEN_COOKIE}=${options.token}; HttpOnly; SameSite=Strict; Path=/`,
    });
    response.end();
    return true;
  }
  if (!callerOf(request, options.token)) return unauthorized(response, options.tokenFile);
  response.writeHead(200, { ...COMMON_HEADERS, "content-type": "text/html; charset=utf-8" });
  response.end(request.method === "HEAD" ? undefined : PAGE_HTML);
  return true;
}

const ASSETS: Record<string, { type: string; body: string } | undefined> = {
  "/app.js": { type: "text/javascript; charset=utf-8", body: APP_JS },
  "/style.css": { type: "text/css; charset=utf-8", body: STYLE_CSS },
  // Browsers ask for it unprompted; an empty answer keeps the log quiet.
  "/favicon.ico": { type: "image/x-icon", body: "" },
};

function unauthorized(response: ServerResponse, tokenFile: string): true {
  response.writeHead(401, { ...COMMON_HEADERS, "content-type": "text/html; charset=utf-8" });
  response.end(unauthorizedHtml(tokenFile));
  return true;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
