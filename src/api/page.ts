/**
 * The web page for answering questions: `/` (the page), `/app.js` and `/style.css`.
 *
 * These hold no data and are served to anyone past the Host/Origin guard. The data is under
 * `/v1`: the page's script trades the one-time code in the link's fragment (`/#code=…`) for an
 * in-tab credential (`routes.ts`, `page-sessions.ts`) and sends it as a Bearer header. No
 * cookie is ever set, so nothing of this instance's goes to another server on the same host.
 *
 * The Content-Security-Policy allows nothing but this origin: no inline script, no foreign
 * image, frame, font or connection. A URL a question names is shown as text and opened only by
 * an explicit click (never an <a href>, never loaded, never prefetched).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { APP_JS } from "./page/app.js";
import { STYLE_CSS } from "./page/style.js";
import { AUDIT_JS } from "./page/audit-tab.js";

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
<script src="/audit.js" defer></script>
</head>
<body>
<header class="top">
  <h1>mcpx questions</h1>
  <span id="status" class="status" role="status">connecting…</span>
</header>
<nav class="tabs" aria-label="Views">
  <button type="button" id="tab-questions" aria-selected="true">Questions</button>
  <button type="button" id="tab-audit" aria-selected="false">Audit</button>
</nav>
<section id="signin" class="signin" hidden>
  <h2>This page needs a fresh link</h2>
  <p id="signin-why"></p>
  <p>A link that mcpx prints works once, within 10 minutes, and signs in this tab only. For a
  fresh one, run <code id="link-command">mcpx link</code> in a terminal of the user running
  mcpx, and open the link it prints.</p>
</section>
<main id="questions">
  <p id="empty" class="empty">No questions are waiting. New ones appear here by themselves.</p>
  <section id="pending" aria-label="Questions waiting for an answer"></section>
  <section class="history">
    <h2>Settled</h2>
    <ul id="settled"></ul>
  </section>
  <section class="history" aria-label="Tasks">
    <h2>Tasks</h2>
    <p id="no-tasks" class="empty">No tasks relayed for you.</p>
    <ul id="tasks"></ul>
  </section>
</main>
<main id="audit" hidden>
  <form id="audit-filter" class="audit-filter" novalidate>
    <label>Since <input name="since" placeholder="1h, 7d or an ISO time" autocomplete="off"></label>
    <label>Server <input name="server" autocomplete="off"></label>
    <label>Tool <input name="tool" autocomplete="off"></label>
    <label>Session <input name="session" autocomplete="off"></label>
    <button type="submit">Show</button>
  </form>
  <p id="audit-status" class="audit-status" role="status"></p>
  <table class="audit">
    <thead><tr><th>When</th><th>Kind</th><th>What</th><th>Arguments or question</th><th>Outcome</th><th>Whose</th></tr></thead>
    <tbody id="audit-entries"></tbody>
  </table>
</main>
</body>
</html>
`;

/** Serve the page and its assets; false for paths that are not the page's. */
export async function servePage(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
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
  response.writeHead(200, { ...COMMON_HEADERS, "content-type": "text/html; charset=utf-8" });
  response.end(request.method === "HEAD" ? undefined : PAGE_HTML);
  return true;
}

const ASSETS: Record<string, { type: string; body: string } | undefined> = {
  "/app.js": { type: "text/javascript; charset=utf-8", body: APP_JS },
  "/style.css": { type: "text/css; charset=utf-8", body: STYLE_CSS },
  "/audit.js": { type: "text/javascript; charset=utf-8", body: AUDIT_JS },
  // Browsers ask for it unprompted; an empty answer keeps the log quiet.
  "/favicon.ico": { type: "image/x-icon", body: "" },
};
