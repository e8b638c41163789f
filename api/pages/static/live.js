/* A session's pages, live at the table (api/pages/live.py says what the server gives; the pages work without this).

   - Follows the session's event stream (Server-Sent Events, the visitor's cookie, the token's side only): on each
     event, and on every (re)connection, the page is fetched again and its <main> swapped in when the session moved
     on; what the visitor was typing or had opened is kept where the fresh page still has the same field.
   - Shows the stream's state: "Live", "Reconnecting", "Offline".
   - While the stream is down or the device offline, a pressed form is not lost: it is kept on the device
     (localStorage) with an Idempotency-Key drawn when it was pressed and the session version the page showed, and
     sent with both (Idempotency-Key, If-Match) when the connection returns, so a retry never plays twice. A refusal
     (the session moved on: 412, or any other) is shown with what was pressed, to send again or dismiss.
   Online with the stream live, a form posts as it does without a script (the browser's own post, then a redirect). */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var streamUrl = script.getAttribute("data-live-stream");
  var sessionId = script.getAttribute("data-session");
  var version = Number(script.getAttribute("data-version"));
  var playPrefix = "/pages/sessions/" + sessionId + "/play/";
  var QUEUE = "tracker-live-queue:" + sessionId;
  var NOTICES = "tracker-live-notices:" + sessionId;
  var RETRY_MS = 3000;
  var LONGEST_RETRY_MS = 30000;
  var reconnectDelay = RETRY_MS;
  var POLL_MS = 2000; // while the stream is refused or away: another device's move still shows within two seconds

  var state = "connecting";
  var source = null;
  var reconnectTimer = null;
  var pollTimer = null;
  var flushTimer = null;
  var flushing = false;
  var refreshing = false;
  var refreshAgain = false;
  var refreshTimer = null;

  // ---- what the visitor sees: the stream's state, what waits on the device, what was refused ----
  var status = document.createElement("p");
  status.id = "live-status";
  status.className = "live-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  var notices = document.createElement("div");
  notices.id = "live-notices";
  notices.className = "live-notices";
  notices.setAttribute("role", "alert");

  function place() {
    var bar = document.querySelector("header.bar") || document.body.firstElementChild;
    if (bar && bar.parentNode) {
      bar.parentNode.insertBefore(status, bar.nextSibling);
      status.parentNode.insertBefore(notices, status.nextSibling);
    } else {
      document.body.insertBefore(notices, document.body.firstChild);
      document.body.insertBefore(status, notices);
    }
  }

  var SAID = {
    connecting: "Connecting…",
    live: "Live: other devices' moves appear here",
    reconnecting: "Reconnecting…",
    offline: "Offline: what you press is kept on this device"
  };

  function setState(next) {
    state = next;
    showStatus();
    if (next === "live") {
      stopPolling();
    } else if (next === "reconnecting") {
      startPolling();
    }
  }

  function showStatus() {
    status.setAttribute("data-state", state);
    var waiting = load(QUEUE).length;
    var text = SAID[state] || state;
    if (waiting) {
      text += " · " + (waiting === 1 ? "1 action" : waiting + " actions") + " kept on this device, sent when the connection returns";
    }
    status.textContent = text;
    status.setAttribute("data-waiting", String(waiting));
  }

  function showNotices() {
    notices.textContent = "";
    load(NOTICES).forEach(function (notice) {
      var item = document.createElement("p");
      item.className = "live-notice";
      item.setAttribute("data-key", notice.entry.key);
      var what = document.createElement("strong");
      what.textContent = "Not recorded: " + notice.entry.label + " (pressed at " + notice.entry.pressed + "). ";
      item.appendChild(what);
      item.appendChild(document.createTextNode(notice.said + " "));
      var again = document.createElement("button");
      again.type = "button";
      again.className = "live-again";
      again.textContent = "Send it again";
      again.addEventListener("click", function () { sendAgain(notice.entry.key); });
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "quiet live-dismiss";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", function () { forget(notice.entry.key); });
      item.appendChild(again);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(dismiss);
      notices.appendChild(item);
    });
  }

  // ---- what is kept on the device ----
  function load(name) {
    try {
      var kept = JSON.parse(window.localStorage.getItem(name) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (error) {
      return [];
    }
  }

  function save(name, items) {
    try {
      if (items.length) window.localStorage.setItem(name, JSON.stringify(items));
      else window.localStorage.removeItem(name);
    } catch (error) { /* storage full or refused: what is pressed is still tried now */ }
  }

  function newKey() {
    // Not game randomness (that is the session's HMAC stream, on the server): a name for one press, unguessable.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return "live-" + Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // ---- the stream ----
  function connect() {
    clearTimeout(reconnectTimer);
    if (source) source.close();
    source = new EventSource(streamUrl);
    source.onopen = function () {
      reconnectDelay = RETRY_MS;
      setState(navigator.onLine === false ? "offline" : "live");
      refresh(false); // what happened while it was away
      flush();
    };
    source.onmessage = function () { scheduleRefresh(); };
    source.onerror = function () {
      if (state !== "offline") setState("reconnecting");
      if (source && source.readyState === EventSource.CLOSED) {
        // refused (the server's streams are all taken: 503) or gone: try again, less often each time (the server's
        // stream slots are few); meanwhile the page is polled
        source.close();
        source = null;
        reconnectTimer = setTimeout(connect, reconnectDelay);
        reconnectDelay = Math.min(reconnectDelay * 2, LONGEST_RETRY_MS);
      } // else the browser reconnects by itself, with Last-Event-ID
    };
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(function () { refresh(false); flush(); }, POLL_MS);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  // ---- the page fetched again and swapped in ----
  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () { refresh(false); }, 60);
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  function versionOf(doc) {
    var hook = doc.querySelector("script[data-live-stream]");
    return hook ? Number(hook.getAttribute("data-version")) : null;
  }

  function refresh(force) {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    fetch(location.pathname + location.search, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var doc = parse(html);
        var fresh = versionOf(doc);
        if (force || (fresh !== null && fresh !== version)) swapIn(doc);
      })
      .catch(function () { /* not reachable now: the stream's state says so */ })
      .then(function () {
        refreshing = false;
        if (refreshAgain) {
          refreshAgain = false;
          refresh(false);
        }
      });
  }

  function fieldKey(el) {
    var form = el.form;
    return (form ? form.id || form.getAttribute("action") || "" : "") + "|" + el.name;
  }

  function detailsKey(details) {
    // its id, else its summary's words under the nearest named part of the page: the play page folds a "What the
    // rules say" into every action, and one of them opened must not open them all when the page is drawn again
    if (details.id) return details.id;
    var summary = details.querySelector(":scope > summary");
    var within = details.parentElement ? details.parentElement.closest("[id]") : null;
    return (within ? within.id : "") + "|" + (summary ? summary.textContent.trim() : "");
  }

  function remember(main) {
    var kept = { fields: {}, details: {}, focus: null };
    Array.prototype.forEach.call(main.querySelectorAll("[data-live-touched]"), function (el) {
      if (el.tagName === "DETAILS") {
        kept.details[detailsKey(el)] = el.open;
        return;
      }
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      if (el.type === "checkbox" || el.type === "radio") kept.fields[fieldKey(el) + "=" + el.value] = { checked: el.checked };
      else kept.fields[fieldKey(el)] = { value: el.value };
    });
    var active = document.activeElement;
    if (active && main.contains(active) && active.name) {
      var at = null;
      try { at = [active.selectionStart, active.selectionEnd]; } catch (error) { at = null; }
      kept.focus = { key: fieldKey(active) + (active.type === "checkbox" || active.type === "radio" ? "=" + active.value : ""), at: at };
    }
    return kept;
  }

  function restore(main, kept) {
    var focused = null;
    Array.prototype.forEach.call(main.querySelectorAll("input, select, textarea"), function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      var key = fieldKey(el) + (el.type === "checkbox" || el.type === "radio" ? "=" + el.value : "");
      var was = kept.fields[key];
      if (was) {
        if ("checked" in was) el.checked = was.checked;
        else if (el.tagName !== "SELECT" || Array.prototype.some.call(el.options, function (o) { return o.value === was.value; })) el.value = was.value;
        el.setAttribute("data-live-touched", "");
      }
      if (kept.focus && kept.focus.key === key) focused = el;
    });
    Array.prototype.forEach.call(main.querySelectorAll("details"), function (details) {
      var key = detailsKey(details);
      if (Object.prototype.hasOwnProperty.call(kept.details, key)) {
        details.open = kept.details[key];
        details.setAttribute("data-live-touched", "");
      }
    });
    if (focused) {
      focused.focus();
      if (kept.focus.at && kept.focus.at[0] !== null) {
        try { focused.setSelectionRange(kept.focus.at[0], kept.focus.at[1]); } catch (error) { /* a field without a caret */ }
      }
    }
  }

  function swapIn(doc) {
    var fresh = doc.querySelector("main");
    var old = document.querySelector("main");
    if (!fresh || !old) return;
    var kept = remember(old);
    var node = document.importNode(fresh, true);
    old.parentNode.replaceChild(node, old);
    restore(node, kept);
    var now = versionOf(doc);
    if (now !== null) version = now;
    if (doc.title) document.title = doc.title;
    document.documentElement.setAttribute("data-live-version", String(version));
  }

  // ---- pressed while the connection is down: kept, then sent ----
  function labelOf(form, submitter) {
    var said = submitter && submitter.textContent ? submitter.textContent.trim() : "";
    var details = form.closest("details");
    var summary = details ? details.querySelector("summary") : null;
    var where = summary ? summary.textContent.trim() : "";
    if (said && where && where.indexOf(said) === 0) return where; // "Roll" in "Roll with the service"
    return said && where ? said + " (" + where + ")" : said || where || "an action";
  }

  function keep(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var fields = [];
    data.forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    var pressed = new Date();
    var entry = {
      key: newKey(),
      action: form.getAttribute("action"),
      fields: fields,
      version: version,
      label: labelOf(form, submitter),
      pressed: pressed.toTimeString().slice(0, 5)
    };
    var queue = load(QUEUE);
    queue.push(entry);
    save(QUEUE, queue);
    showStatus();
    flush();
  }

  function scheduleFlush() {
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, RETRY_MS);
  }

  function flush() {
    if (flushing) return;
    var queue = load(QUEUE);
    if (!queue.length) return;
    flushing = true;
    send(queue[0]).then(function (outcome) {
      flushing = false;
      showStatus();
      if (outcome === "kept") scheduleFlush();
      else flush();
    });
  }

  function drop(key) {
    save(QUEUE, load(QUEUE).filter(function (entry) { return entry.key !== key; }));
  }

  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (field) { body.append(field[0], field[1]); });
    return fetch(entry.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Idempotency-Key": entry.key, "If-Match": String(entry.version) }
    }).then(function (response) {
      if (response.status === 429 || response.status >= 500) return "kept"; // busy or failed: the same key again later
      drop(entry.key);
      return response.text().then(function (html) {
        var doc = parse(html);
        var onThisPage = location.pathname === new URL(response.url, location.href).pathname || /\/play$/.test(location.pathname);
        if (response.ok) {
          if (onThisPage && versionOf(doc) !== null) swapIn(doc);
          else refresh(true);
          return "sent";
        }
        refused(entry, doc);
        if (/\/play$/.test(location.pathname) && versionOf(doc) !== null) swapIn(doc); // the play page with the refusal
        else refresh(true);
        return "refused";
      });
    }, function () {
      return "kept"; // no answer: not sent, or sent and its answer lost; the same key makes the retry safe either way
    });
  }

  function refused(entry, doc) {
    var problem = doc.querySelector("#problem") || doc.querySelector("main");
    // each part of the refusal (its title, its hint, each change) its own sentence: "... to undo. Rolls, ..." not "undoRolls"
    var parts = problem ? Array.prototype.map.call(problem.children.length ? problem.children : [problem], function (el) { return el.textContent; }) : [];
    parts = parts.map(function (part) { part = part.replace(/\s+/g, " ").trim(); return /[.!?:)]$/.test(part) || !part ? part : part + "."; });
    var said = problem ? parts.join(" ").trim() : "The server refused it.";
    var kept = load(NOTICES).filter(function (notice) { return notice.entry.key !== entry.key; });
    kept.push({ entry: entry, said: said });
    save(NOTICES, kept);
    showNotices();
  }

  function forget(key) {
    save(NOTICES, load(NOTICES).filter(function (notice) { return notice.entry.key !== key; }));
    showNotices();
  }

  function sendAgain(key) {
    var notice = load(NOTICES).filter(function (n) { return n.entry.key === key; })[0];
    forget(key);
    if (!notice) return;
    // pressed again, on the session as it is now: a new press, so a new key and the version shown now
    var entry = notice.entry;
    entry.key = newKey();
    entry.version = version;
    var queue = load(QUEUE);
    queue.push(entry);
    save(QUEUE, queue);
    showStatus();
    flush();
  }

  // ---- wiring ----
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = form && form.getAttribute ? form.getAttribute("action") || "" : "";
    if ((form.method || "").toLowerCase() !== "post" || action.indexOf(playPrefix) !== 0) return;
    if (navigator.onLine !== false && state === "live") return; // the browser's own post, as without a script
    event.preventDefault();
    keep(form, event.submitter || null);
  });
  function touched(event) {
    var el = event.target;
    if (el && el.setAttribute && el.name) el.setAttribute("data-live-touched", "");
  }
  document.addEventListener("input", touched);
  document.addEventListener("change", touched);
  document.addEventListener("click", function (event) {
    var summary = event.target && event.target.closest ? event.target.closest("summary") : null;
    if (summary && summary.parentNode && summary.parentNode.tagName === "DETAILS") summary.parentNode.setAttribute("data-live-touched", "");
  });
  window.addEventListener("offline", function () { setState("offline"); });
  window.addEventListener("online", function () {
    reconnectDelay = RETRY_MS;
    setState("reconnecting");
    connect();
    flush();
  });

  place();
  showStatus();
  showNotices();
  if (navigator.onLine === false) setState("offline");
  connect();
  flush();
})();
