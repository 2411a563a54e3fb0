/**
 * The page's Audit tab, served at `/audit.js` beside the questions' script: the audit trail as
 * `GET /v1/audit` gives it (the filters of `mcpx audit`: since, server, tool, session), newest
 * last as the CLI prints it. Read-only: it only reads. Every value of an entry (arguments are
 * whatever an agent sent) reaches the DOM through textContent, never as markup. It uses the
 * tab's credential that the questions' script keeps in sessionStorage. Kept as a string (no
 * bundler); it must contain no backtick and no dollar-brace.
 */
export const AUDIT_JS = String.raw`"use strict";
(function () {
  var SESSION_KEY = "mcpx-page-session";
  var tabs = { questions: document.getElementById("tab-questions"), audit: document.getElementById("tab-audit") };
  var panes = { questions: document.getElementById("questions"), audit: document.getElementById("audit") };
  var form = document.getElementById("audit-filter");
  var status = document.getElementById("audit-status");
  var body = document.getElementById("audit-entries");
  var signin = document.getElementById("signin");

  function cell(text, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text === undefined || text === null ? "" : String(text);
    return td;
  }

  function who(entry) {
    return [
      entry.identity && entry.identity !== "local" ? entry.identity : "",
      entry.hostSession ? "session " + entry.hostSession : "",
      entry.client ? "(" + entry.client + ")" : "",
      entry.callId ? "call " + entry.callId : "",
    ].filter(Boolean).join(" ");
  }

  function row(entry) {
    var tr = document.createElement("tr");
    tr.className = "audit-" + entry.kind;
    tr.setAttribute("data-seq", String(entry.seq));
    var what = entry.tool ? entry.server + "." + entry.tool : entry.server;
    var detail = entry.kind === "call"
      ? JSON.stringify(entry.arguments === undefined ? {} : entry.arguments)
      : [entry.method || "", entry.questionId || ""].join(" ").trim();
    var outcome = entry.outcome + (entry.kind === "call" && typeof entry.durationMs === "number" ? " in " + entry.durationMs + " ms" : "");
    if (entry.answeredBy) outcome += " by " + entry.answeredBy;
    if (entry.answeredFrom) outcome += " from " + entry.answeredFrom;
    if (entry.detail) outcome += ": " + entry.detail;
    [cell(entry.at, "at"), cell(entry.kind, "kind"), cell(what, "what"), cell(detail, "detail"), cell(outcome, "outcome"), cell(who(entry), "who")]
      .forEach(function (td) { tr.append(td); });
    return tr;
  }

  async function load() {
    var credential = null;
    try { credential = sessionStorage.getItem(SESSION_KEY); } catch (e) { credential = null; }
    if (!credential) { status.textContent = "This tab is not signed in."; return; }
    var query = new URLSearchParams();
    ["since", "server", "tool", "session"].forEach(function (key) {
      var value = form.elements.namedItem(key).value.trim();
      if (value !== "") query.set(key, value);
    });
    status.textContent = "loading\u2026";
    try {
      var response = await fetch("/v1/audit" + (query.toString() ? "?" + query.toString() : ""), {
        credentials: "omit", cache: "no-store", headers: { authorization: "Bearer " + credential, accept: "application/json" },
      });
      var reply = await response.json().catch(function () { return null; });
      if (!response.ok) {
        status.textContent = reply && reply.error && typeof reply.error.message === "string" ? reply.error.message : "HTTP " + response.status;
        return;
      }
      body.replaceChildren.apply(body, reply.map(row));
      status.textContent = reply.length === 0 ? "No entries match." : reply.length + (reply.length === 1 ? " entry" : " entries") + ", oldest first";
    } catch (e) {
      status.textContent = "cannot read the audit trail: " + e.message;
    }
  }

  function show(name) {
    Object.keys(tabs).forEach(function (key) {
      var selected = key === name;
      tabs[key].setAttribute("aria-selected", selected ? "true" : "false");
      // A tab that must sign in again shows the sign-in note only.
      panes[key].hidden = !selected || !signin.hidden;
    });
    if (name === "audit") load();
  }

  tabs.questions.addEventListener("click", function () { show("questions"); });
  tabs.audit.addEventListener("click", function () { show("audit"); });
  form.addEventListener("submit", function (event) { event.preventDefault(); load(); });
})();
`;
