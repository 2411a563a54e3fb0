/**
 * The page's script, served at `/app.js` (no inline script: the CSP forbids it). Kept as a
 * string so the build needs no bundler; it must contain no backtick and no dollar-brace.
 *
 * It first signs this tab in: the one-time code in the link's fragment (#code=…, which the
 * browser never sends to a server) is dropped from the address bar and traded (POST
 * /v1/page-session) for a credential kept in sessionStorage (this origin, this tab) and sent
 * as "Authorization: Bearer" on every request; no cookie exists. It then lists pending
 * questions (GET /v1/questions) and follows changes live (a fetch() stream of /v1/events:
 * EventSource cannot send the header). Every piece of question data reaches the
 * DOM through textContent or attributes, never as markup. A form is generated from the
 * question's schema and sends typed values; a URL is shown as text with its host in bold and
 * is opened only when the person clicks "Open URL".
 */
export const APP_JS = String.raw`"use strict";
(function () {
  var pendingList = document.getElementById("pending");
  var emptyNote = document.getElementById("empty");
  var settledList = document.getElementById("settled");
  var statusNote = document.getElementById("status");
  var signinNote = document.getElementById("signin");
  var signinWhy = document.getElementById("signin-why");
  var questionsMain = document.getElementById("questions");
  var SESSION_KEY = "mcpx-page-session";
  var credential = null;
  var retryMs = 2000;
  var cards = new Map();
  var settled = new Set();
  var fieldCount = 0;

  // Build an element. Props: class, text, on {event: fn}; anything else is an attribute.
  function h(tag, props) {
    var node = document.createElement(tag);
    Object.entries(props || {}).forEach(function (entry) {
      var key = entry[0], value = entry[1];
      if (value === undefined || value === null || value === false) return;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key === "on") Object.entries(value).forEach(function (e) { node.addEventListener(e[0], e[1]); });
      else node.setAttribute(key, value === true ? "" : String(value));
    });
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.append(child instanceof Node ? child : String(child));
  }
  function quote(text) { return "\u201c" + text + "\u201d"; }

  // ---- time left ------------------------------------------------------------------------

  function timeText(card) {
    var ms = card.deadline - Date.now();
    if (ms <= 0) return "time is up";
    var s = Math.ceil(ms / 1000), m = Math.floor(s / 60);
    return (m > 0 ? m + " min " : "") + (s % 60) + " s left";
  }
  function tick() {
    cards.forEach(function (card) {
      card.time.textContent = timeText(card);
      card.time.classList.toggle("late", card.deadline - Date.now() < 15000);
    });
  }

  // ---- form fields from the schema -------------------------------------------------------

  function choicesOf(prop) {
    var list = Array.isArray(prop.oneOf) ? prop.oneOf : Array.isArray(prop.anyOf) ? prop.anyOf : null;
    if (list && list.length && list.every(function (c) { return c && typeof c === "object" && "const" in c; })) {
      return list.map(function (c) { return { value: c.const, label: typeof c.title === "string" ? c.title : String(c.const) }; });
    }
    if (Array.isArray(prop.enum)) {
      var names = Array.isArray(prop.enumNames) ? prop.enumNames : [];
      return prop.enum.map(function (v, i) { return { value: v, label: typeof names[i] === "string" ? names[i] : String(v) }; });
    }
    return null;
  }
  function inputType(prop) {
    switch (prop.format) {
      case "email": return "email";
      case "uri": return "url";
      case "date": return "date";
      case "date-time": return "datetime-local";
      case "password": return "password";
      default: return prop.writeOnly === true ? "password" : "text";
    }
  }
  function localDateTime(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return "";
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  }

  // One field: {name, title, required, node, read()} where read() gives the typed value or
  // undefined when nothing was entered.
  function field(name, prop, required) {
    var id = "field-" + (++fieldCount);
    var title = typeof prop.title === "string" && prop.title ? prop.title : name;
    var mark = required ? h("span", { class: "required", title: "required" }, " *") : null;
    var help = typeof prop.description === "string" && prop.description ? h("small", { class: "help" }, prop.description) : null;
    var node = h("div", { class: "field", "data-field": name });
    var read;
    var single = prop.type !== "array" ? choicesOf(prop) : null;
    var multi = prop.type === "array" && prop.items && typeof prop.items === "object" ? choicesOf(prop.items) : null;

    if (single) {
      var select = h("select", { id: id, name: name, required: required });
      select.append(h("option", { value: "" }, "\u2014 choose \u2014"));
      single.forEach(function (c, i) {
        var option = h("option", { value: String(i) }, c.label);
        if (c.value === prop.default) option.selected = true;
        select.append(option);
      });
      append(node, [h("label", { for: id }, title, mark), help, select]);
      read = function () { return select.value === "" ? undefined : single[Number(select.value)].value; };
    } else if (multi) {
      var chosen = Array.isArray(prop.default) ? prop.default : [];
      var boxes = multi.map(function (c) {
        var box = h("input", { type: "checkbox", value: String(c.value) });
        box.checked = chosen.indexOf(c.value) !== -1;
        return box;
      });
      append(node, h("fieldset", {}, h("legend", {}, title, mark), help,
        multi.map(function (c, i) { return h("label", { class: "choice" }, boxes[i], " ", c.label); })));
      // Untouched, with no default: left out, as mcpx elicit answer and the prompt leave it.
      var multiTouched = false;
      boxes.forEach(function (box) { box.addEventListener("change", function () { multiTouched = true; }); });
      read = function () {
        if (!multiTouched && !required && !Array.isArray(prop.default)) return undefined;
        return multi.filter(function (c, i) { return boxes[i].checked; }).map(function (c) { return c.value; });
      };
    } else if (prop.type === "boolean") {
      var box = h("input", { type: "checkbox", id: id, name: name });
      box.checked = prop.default === true;
      node.classList.add("check");
      append(node, [h("label", { for: id }, box, title, mark), help]);
      // An optional one untouched, with no default, is left out, as the CLI leaves it; a required
      // one's unchecked box is the "no" the person sees.
      var touched = false;
      box.addEventListener("change", function () { touched = true; });
      read = function () { return !touched && !required && typeof prop.default !== "boolean" ? undefined : box.checked; };
    } else if (prop.type === "number" || prop.type === "integer") {
      var number = h("input", {
        type: "number", id: id, name: name, required: required,
        min: typeof prop.minimum === "number" ? prop.minimum : null,
        max: typeof prop.maximum === "number" ? prop.maximum : null,
        step: prop.type === "integer" ? "1" : "any",
      });
      if (typeof prop.default === "number") number.value = String(prop.default);
      append(node, [h("label", { for: id }, title, mark), help, number]);
      read = function () {
        if (number.value.trim() === "") return undefined;
        var n = Number(number.value);
        if (!isFinite(n)) throw new Error(quote(title) + " must be a number");
        // Checked here, before anything is sent: the browser's own check is off (novalidate).
        if (prop.type === "integer" && Math.floor(n) !== n) throw new Error(quote(title) + " must be a whole number");
        if (typeof prop.minimum === "number" && n < prop.minimum) throw new Error(quote(title) + " must be at least " + prop.minimum);
        if (typeof prop.maximum === "number" && n > prop.maximum) throw new Error(quote(title) + " must be at most " + prop.maximum);
        if (typeof prop.exclusiveMinimum === "number" && n <= prop.exclusiveMinimum) throw new Error(quote(title) + " must be more than " + prop.exclusiveMinimum);
        if (typeof prop.exclusiveMaximum === "number" && n >= prop.exclusiveMaximum) throw new Error(quote(title) + " must be less than " + prop.exclusiveMaximum);
        return n;
      };
    } else {
      var type = inputType(prop);
      var text = h("input", {
        type: type, id: id, name: name, required: required, autocomplete: type === "password" ? "new-password" : "off",
        minlength: typeof prop.minLength === "number" ? prop.minLength : null,
        maxlength: typeof prop.maxLength === "number" ? prop.maxLength : null,
      });
      if (typeof prop.default === "string") text.value = type === "datetime-local" ? localDateTime(prop.default) : prop.default;
      append(node, [h("label", { for: id }, title, mark), help, text]);
      read = function () {
        if (text.value === "") return undefined;
        if (type === "datetime-local") {
          var d = new Date(text.value);
          if (isNaN(d.getTime())) throw new Error(quote(title) + " is not a date and time");
          return d.toISOString();
        }
        if (typeof prop.minLength === "number" && text.value.length < prop.minLength) {
          throw new Error(quote(title) + " must be at least " + prop.minLength + " characters");
        }
        return text.value;
      };
    }
    // What is wrong with this field, shown under it (the card's alert says it for the whole form).
    var problem = h("small", { class: "problem", hidden: true });
    node.append(problem);
    var markField = function (text) {
      node.classList.toggle("missing", Boolean(text));
      if (text) node.setAttribute("aria-invalid", "true"); else node.removeAttribute("aria-invalid");
      problem.textContent = text || "";
      problem.hidden = !text;
    };
    return { name: name, title: title, required: required, node: node, read: read, mark: markField };
  }

  function formBody(view) {
    var schema = view.requestedSchema || {};
    var props = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
    var required = Array.isArray(schema.required) ? schema.required : [];
    var fields = Object.keys(props).map(function (name) {
      return field(name, props[name] && typeof props[name] === "object" ? props[name] : {}, required.indexOf(name) !== -1);
    });
    var form = h("form", { class: "fields", novalidate: true, on: { submit: function (e) { e.preventDefault(); } } },
      fields.map(function (f) { return f.node; }));
    return {
      node: form,
      collect: function () {
        var content = {}, missing = [], wrong = [];
        fields.forEach(function (f) {
          f.mark("");
          var value;
          try { value = f.read(); } catch (problem) { wrong.push(problem.message); f.mark(problem.message); return; }
          if (value === undefined) {
            if (f.required) { missing.push(quote(f.title)); f.mark("Required"); }
            return;
          }
          content[f.name] = value;
        });
        var said = [];
        if (missing.length) said.push("Please fill in the required field" + (missing.length > 1 ? "s " : " ") + missing.join(", ") + ".");
        if (wrong.length) said.push(wrong.join("; ") + ".");
        if (said.length) throw new Error(said.join(" "));
        return content;
      },
      // The server refused the answer: mark each field its message names (field "age" …) at its label.
      refused: function (message) {
        fields.forEach(function (f) {
          var named = message.indexOf('field "' + f.name + '"') !== -1 || message.indexOf('field "' + f.name + '.') !== -1;
          f.mark(named ? message : "");
        });
      },
    };
  }

  // ---- URL questions --------------------------------------------------------------------

  function urlBody(view) {
    var raw = typeof view.url === "string" ? view.url : "";
    var parsed = null;
    try { parsed = new URL(raw); } catch (e) { parsed = null; }
    var shown = h("p", { class: "url", "data-url": "" });
    var warnings = [];
    var openable = false;
    if (!parsed) {
      shown.append(raw);
      warnings.push("This is not a valid URL; it cannot be opened.");
    } else {
      var user = parsed.username ? parsed.username + (parsed.password ? ":" + parsed.password : "") + "@" : "";
      append(shown, [parsed.protocol + "//" + user, h("strong", { class: "host" }, parsed.hostname),
        (parsed.port ? ":" + parsed.port : "") + parsed.pathname + parsed.search + parsed.hash]);
      openable = parsed.protocol === "https:" || parsed.protocol === "http:";
      if (!openable) warnings.push("This is not a web address (" + parsed.protocol + "); mcpx will not open it.");
      if (parsed.hostname.split(".").some(function (label) { return label.toLowerCase().indexOf("xn--") === 0; })) {
        warnings.push("The site name is punycode (" + parsed.hostname + "): it may imitate another site with look-alike letters.");
      }
      if (/[^\x00-\x7f]/.test(raw)) warnings.push("The URL contains non-ASCII characters: check the site name letter by letter.");
      if (user) warnings.push("The URL has a user name before \u201c@\u201d: the site is only the part in bold.");
    }
    var rawNote = parsed && parsed.href !== raw ? h("p", { class: "raw" }, "As sent: ", raw) : null;
    var opened = h("span", { class: "opened", role: "status" });
    var open = h("button", { type: "button", class: "open", "data-action": "open", disabled: !openable }, "Open URL");
    open.addEventListener("click", function () {
      window.open(parsed.href, "_blank", "noopener,noreferrer");
      opened.textContent = " Opened in a new tab. Come back here and press \u201cFinished\u201d once you are done.";
    });
    return {
      node: h("div", {}, h("p", {}, "The server asks you to open this address:"), shown, rawNote,
        warnings.map(function (w) { return h("p", { class: "warning", role: "note" }, "\u26a0 ", w); }),
        h("p", {}, open, opened)),
      collect: function () { return undefined; },
    };
  }

  // ---- sampling -----------------------------------------------------------------------

  function jsonBody(view) {
    var id = "field-" + (++fieldCount);
    var area = h("textarea", { id: id, rows: 6, spellcheck: "false" });
    area.value = JSON.stringify({ role: "assistant", content: { type: "text", text: "" }, model: "a person via mcpx" }, null, 2);
    return {
      node: h("div", {}, h("p", {}, "The request:"), h("pre", { class: "params" }, JSON.stringify(view.params || {}, null, 2)),
        h("label", { for: id }, "The result to send if you accept (JSON):"), area),
      collect: function () {
        var value;
        try { value = JSON.parse(area.value); } catch (e) { throw new Error("The result is not valid JSON: " + e.message); }
        if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("The result must be a JSON object.");
        return value;
      },
    };
  }

  // ---- cards ------------------------------------------------------------------------------

  function makeCard(view) {
    var body = view.kind !== "elicitation" ? jsonBody(view) : view.mode === "url" ? urlBody(view) : formBody(view);
    var time = h("span", { class: "time" });
    var error = h("p", { class: "error", role: "alert", hidden: true });
    var actions = view.mode === "url" ? ["accept", "done", "decline", "cancel"] : ["accept", "decline", "cancel"];
    var buttons = actions.map(function (action) {
      var label = action === "accept" ? (view.mode === "url" ? "I consent" : "Accept") : action === "done" ? "Finished" : action === "decline" ? "Decline" : "Cancel";
      return h("button", { type: "button", class: action, "data-action": action }, label);
    });
    var root = h("article", { class: "question", "data-id": view.id, "data-kind": view.kind, "data-mode": view.mode || "" },
      h("header", {}, h("h2", {}, view.message), time),
      h("p", { class: "meta" }, "Asked by ", h("strong", {}, view.server),
        view.tool ? [" during the call to ", h("code", {}, view.tool)] : null, " \u00b7 ", h("code", {}, view.id)),
      h("p", { class: "audience " + view.audience },
        view.audience === "person" ? "For a person only: " : "A person or an agent may answer: ", view.audienceReason),
      view.hostSession || view.callId ? null : h("p", { class: "unattributed", role: "note" },
        "No single host could be proven to have asked this (calls from several hosts were in flight on a shared connection), " +
        "so it waits for a person. If \u201c" + view.server + "\u201d asks questions, give it \"sharing\": \"per-host\" in the mcpx config " +
        "so its questions reach the host that asked."),
      body.node, error, h("div", { class: "buttons" }, buttons));
    var card = { view: view, root: root, time: time, deadline: Date.now() + view.secondsLeft * 1000 };
    buttons.forEach(function (button) {
      button.addEventListener("click", function () { answer(card, body, button.getAttribute("data-action"), error, buttons); });
    });
    card.time.textContent = timeText(card);
    return card;
  }

  function showError(error, text) {
    error.textContent = text;
    error.hidden = !text;
  }

  async function answer(card, body, action, error, buttons) {
    var content;
    if (action === "accept") {
      try { content = body.collect(); } catch (problem) { showError(error, problem.message); return; }
    }
    showError(error, "");
    buttons.forEach(function (b) { b.disabled = true; });
    try {
      // "Finished" (URL questions): the interaction at the URL is done, which is consent too.
      var finished = action === "done";
      var response = await fetch("/v1/questions/" + encodeURIComponent(card.view.id) + (finished ? "/done" : "/answer"), {
        method: "POST",
        credentials: "omit",
        headers: authorized({ "content-type": "application/json" }),
        body: JSON.stringify(finished ? {} : content === undefined ? { action: action } : { action: action, content: content }),
      });
      if (response.status === 401) { signedOut("This tab's sign-in is no longer valid (mcpx restarted, or it expired)."); return; }
      var reply = await response.json().catch(function () { return {}; });
      if (response.ok) { upsert(reply); return; }
      var refusal = reply.error && reply.error.message ? reply.error.message : "The answer failed (HTTP " + response.status + ").";
      showError(error, refusal);
      if (body.refused) body.refused(refusal);
      if (response.status === 409 || response.status === 404) refreshOne(card.view.id);
    } catch (problem) {
      showError(error, "Could not reach mcpx: " + problem.message);
    }
    buttons.forEach(function (b) { b.disabled = false; });
  }

  // Why it is over, as every surface says it: "declined by cli", "expired: nobody answered
  // within 5m", "closed: the server stopped waiting".
  function outcome(view) {
    var why = view.closedBecause || view.state;
    if (view.state === "expired") return why + " (cancel sent)";
    if (view.state === "closed") return "closed: " + why;
    return why;
  }

  function upsert(view) {
    if (!view || typeof view.id !== "string") return;
    var card = cards.get(view.id);
    if (view.state === "pending") {
      if (card || settled.has(view.id)) return;
      card = makeCard(view);
      cards.set(view.id, card);
      var before = null;
      Array.prototype.some.call(pendingList.children, function (element) {
        var other = cards.get(element.getAttribute("data-id"));
        if (other && other.view.createdAt > view.createdAt) before = element;
        return before !== null;
      });
      pendingList.insertBefore(card.root, before);
    } else {
      if (card) { card.root.remove(); cards.delete(view.id); }
      if (!settled.has(view.id)) {
        settled.add(view.id);
        settledList.prepend(h("li", { "data-id": view.id, "data-state": view.state }, h("strong", {}, view.message), " \u2014 ", outcome(view)));
        while (settledList.children.length > 30) settledList.lastChild.remove();
      }
    }
    emptyNote.hidden = cards.size > 0;
    document.title = (cards.size ? "(" + cards.size + ") " : "") + "mcpx questions";
  }

  async function getJson(path) {
    var response = await fetch(path, { credentials: "omit", headers: authorized({ accept: "application/json" }) });
    if (response.status === 401) { signedOut("This tab's sign-in is no longer valid (mcpx restarted, or it expired)."); throw new Error("signed out"); }
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response.json();
  }

  async function refreshOne(id) {
    try { upsert(await getJson("/v1/questions/" + encodeURIComponent(id))); } catch (e) { /* shown on the next event */ }
  }

  // The whole pending list, e.g. after (re)connecting: cards no longer listed were settled meanwhile.
  async function refreshAll() {
    try {
      var list = await getJson("/v1/questions");
      var ids = new Set(list.map(function (v) { return v.id; }));
      list.forEach(upsert);
      cards.forEach(function (card, id) { if (!ids.has(id)) refreshOne(id); });
    } catch (e) {
      statusNote.textContent = "cannot list questions: " + e.message;
    }
  }

  // ---- tasks (GET /v1/tasks: the caller's own, running and ended), looked at every few seconds --

  async function refreshTasks() {
    if (!credential) return;
    try {
      var tasks = await getJson("/v1/tasks?all=1");
      var list = document.getElementById("tasks");
      list.replaceChildren.apply(list, tasks.slice(-30).reverse().map(function (task) {
        var running = ["completed", "failed", "cancelled"].indexOf(task.status) < 0;
        return h("li", { "data-id": task.id, "data-status": task.status },
          h("strong", {}, task.server + " / " + task.tool), " \u2014 ", task.status,
          task.statusMessage ? " (" + task.statusMessage + ")" : "", h("small", { class: "id" }, " " + task.id),
          running ? " " : null,
          running ? h("button", { type: "button", class: "cancel task-cancel", on: { click: function (event) { cancelTask(task.id, event.currentTarget); } } }, "Cancel") : null);
      }));
      document.getElementById("no-tasks").hidden = tasks.length > 0;
    } catch (e) { /* tried again shortly */ }
  }

  // POST /v1/tasks/:id/cancel; the list shows the task's new status (or why not) at once.
  async function cancelTask(id, button) {
    button.disabled = true;
    try {
      var response = await fetch("/v1/tasks/" + encodeURIComponent(id) + "/cancel", { method: "POST", credentials: "omit", headers: authorized({}) });
      if (response.status === 401) { signedOut("This tab's sign-in is no longer valid (mcpx restarted, or it expired)."); return; }
      if (!response.ok) {
        var reply = await response.json().catch(function () { return {}; });
        button.replaceWith(h("span", { class: "error" }, " " + (reply.error && reply.error.message ? reply.error.message : "The cancel failed (HTTP " + response.status + ").")));
        return;
      }
    } catch (problem) {
      button.disabled = false;
      return;
    }
    refreshTasks();
  }

  // ---- signing in and the live stream --------------------------------------------------

  function authorized(headers) {
    headers.authorization = "Bearer " + credential;
    return headers;
  }

  function signedOut(why) {
    credential = null;
    try { sessionStorage.removeItem(SESSION_KEY); } catch (e) { /* storage disabled */ }
    statusNote.textContent = "signed out";
    statusNote.className = "status down";
    signinWhy.textContent = why;
    var command = "mcpx link --port " + (location.port || (location.protocol === "https:" ? "443" : "80"));
    if (location.hostname !== "127.0.0.1") command += " --host " + location.hostname;
    document.getElementById("link-command").textContent = command;
    signinNote.hidden = false;
    questionsMain.hidden = true;
  }

  // Trade the link's one-time code, if any, for this tab's credential; else use the one this tab has.
  async function signIn() {
    var match = /^#(?:.*&)?code=([^&]*)/.exec(location.hash);
    if (match) {
      // Out of the address bar and history at once: it is spent either way.
      history.replaceState(null, "", location.pathname + location.search);
      try {
        var response = await fetch("/v1/page-session", {
          method: "POST",
          credentials: "omit",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ code: decodeURIComponent(match[1]) }),
        });
        var reply = await response.json().catch(function () { return {}; });
        if (response.ok && typeof reply.token === "string") {
          credential = reply.token;
          try { sessionStorage.setItem(SESSION_KEY, credential); } catch (e) { /* kept in memory only */ }
          return true;
        }
      } catch (e) { /* unreachable: treated as a bad link */ }
      try { credential = sessionStorage.getItem(SESSION_KEY); } catch (e) { credential = null; }
      if (!credential) signedOut("The link was already used, has expired, or is not for this mcpx.");
      return credential !== null;
    }
    try { credential = sessionStorage.getItem(SESSION_KEY); } catch (e) { credential = null; }
    if (!credential) signedOut("This tab is not signed in.");
    return credential !== null;
  }

  // One server-sent event block: "question" events carry a view; "retry" sets the reconnect delay.
  function handleEvent(block) {
    var name = "message", data = [];
    block.split(/\r\n|\r|\n/).forEach(function (line) {
      if (line === "" || line.charAt(0) === ":") return;
      var at = line.indexOf(":");
      var key = at === -1 ? line : line.slice(0, at);
      var value = at === -1 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (key === "event") name = value;
      else if (key === "data") data.push(value);
      else if (key === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
    });
    if (name !== "question" || !data.length) return;
    try { upsert(JSON.parse(data.join("\n"))); } catch (e) { /* a malformed event: ignore it */ }
  }

  async function connect() {
    if (!credential) return;
    try {
      var response = await fetch("/v1/events", { credentials: "omit", cache: "no-store", headers: authorized({ accept: "text/event-stream" }) });
      if (response.status === 401) { signedOut("This tab's sign-in is no longer valid (mcpx restarted, or it expired)."); return; }
      if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
      statusNote.textContent = "live";
      statusNote.className = "status live";
      refreshAll();
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = "";
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        var end;
        while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
          var block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          handleEvent(block);
        }
      }
    } catch (e) { /* dropped: reconnect below */ }
    if (!credential) return;
    statusNote.textContent = "reconnecting\u2026";
    statusNote.className = "status down";
    setTimeout(connect, retryMs);
  }

  emptyNote.hidden = false;
  signIn().then(function (signedIn) {
    if (!signedIn) return;
    connect();
    setInterval(tick, 1000);
    refreshTasks();
    setInterval(refreshTasks, 3000);
  });
})();
`;
