// tend's pages work without this file; it adds the global keyboard
// shortcuts and live refresh. The lists' script is lists.js, the board's
// board.js.
(function () {
  "use strict";

  function typing(e) {
    var t = e.target;
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }

  // Keyboard: c adds, / searches, ? lists the shortcuts. Never while
  // typing in a field. The list keys are lists.js's.
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
    var add = document.querySelector("#quick-add input[name=text]");
    switch (e.key) {
      case "c":
        e.preventDefault();
        if (add) add.focus(); else location.href = "/?add=1";
        break;
      case "/":
        e.preventDefault();
        var q = document.querySelector("input[name=q]");
        if (q) q.focus(); else location.href = "/search#find";
        break;
      case "?":
        var d = document.getElementById("shortcuts");
        if (d && d.showModal) d.showModal();
        break;
    }
  });
  // Pressed c on a page without the add box: Today opens with it focused.
  if (/[?&]add=1\b/.test(location.search)) {
    var box = document.querySelector("#quick-add input[name=text]");
    if (box) box.focus();
  }
  // Pressed / on a page without a search box: Search opens with its box focused.
  if (location.hash === "#find") {
    var find = document.querySelector("input[name=q]");
    if (find) find.focus();
  }

  // Live refresh: a long poll on /live wakes when the change feed moves.
  // The page then shows what changed without taking anything from the
  // person: with nothing typed or open it reloads; otherwise it fetches
  // itself and swaps in the new page around the forms being filled in and
  // keeps what is open (see refresh). A failed poll waits 15 s before the
  // next. A page that is already leaving (a form sent, a link followed)
  // must not be reloaded under the person: the reload would cancel where
  // they go.
  var leaving = false;
  document.addEventListener("submit", function (e) { if (!e.defaultPrevented) leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });
  var live = document.body.getAttribute("data-live");
  if (live) {
    var seq = -1;
    var poll = function () {
      fetch(seq < 0 ? "/live" : "/live?after=" + seq, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (j) {
          if (leaving) return;
          // lists.js puts a list page's lists in place itself; any other
          // page is refreshed around what the person is doing.
          if (seq >= 0 && j.seq > seq && !(window.tendRefresh && window.tendRefresh())) refresh();
          seq = j.seq;
          poll();
        })
        .catch(function () { setTimeout(poll, 15000); });
    };
    poll();
  }

  // changed reports whether a form holds anything the person typed or chose.
  function changed(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      if (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && !/^(hidden|submit|button|reset|image)$/.test(el.type))) return el.value !== el.defaultValue;
      return false;
    });
  }

  // twin finds in the new page the form standing where f stands in this
  // one: the same id, else the same action at the same place among those.
  function twin(f, main) {
    if (f.id) return main.querySelector("form#" + CSS.escape(f.id));
    var action = f.getAttribute("action") || "";
    var same = function (root) {
      return Array.prototype.filter.call(root.querySelectorAll("form"), function (g) { return (g.getAttribute("action") || "") === action; });
    };
    var i = same(document.querySelector("main")).indexOf(f);
    return same(main)[i] || null;
  }

  // One refresh at a time: a second change while one is on its way reads
  // the page again after it, so the newer page is never put in place first
  // and then covered by the older one.
  var refreshing = false, refreshAgain = false;
  function refresh() {
    if (refreshing) { refreshAgain = true; return; }
    var main = document.querySelector("main");
    var active = document.activeElement;
    var kept = Array.prototype.filter.call(main.querySelectorAll("form"), function (f) {
      return changed(f) || (active && active !== document.body && f.contains(active));
    });
    var open = Array.prototype.slice.call(main.querySelectorAll("details[id][open]"));
    // lists.js may hold rows acted on in place, and an Undo in the toast.
    var holding = window.tendLists && window.tendLists.holding();
    if (!kept.length && !open.length && !holding) { location.reload(); return; }
    refreshing = true;
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        if (leaving) return;
        var next = new DOMParser().parseFromString(html, "text/html");
        var fresh = next.querySelector("main");
        if (!fresh) throw new Error("no main");
        var pairs = kept.map(function (f) { return [f, twin(f, fresh)]; });
        if (pairs.some(function (p) { return !p[1]; })) throw new Error("a form being filled in is gone");
        var sel = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
        var x = window.scrollX, y = window.scrollY;
        open.forEach(function (d) {
          var e = fresh.querySelector("details#" + CSS.escape(d.id));
          if (e) e.open = true;
        });
        pairs.forEach(function (p) { p[1].replaceWith(p[0]); });
        var toast = document.getElementById("toast"), newToast = fresh.querySelector("#toast");
        if (toast && newToast && toast.childElementCount) newToast.replaceWith(toast);
        main.replaceWith(fresh);
        document.title = next.title;
        window.scrollTo(x, y);
        if (active && document.contains(active)) {
          active.focus({ preventScroll: true });
          if (sel) { try { active.setSelectionRange(sel[0], sel[1]); } catch (e) { /* not a text field */ } }
        }
        document.dispatchEvent(new CustomEvent("tend:swapped"));
      })
      .catch(function () {
        var n = document.getElementById("live-note");
        if (n) n.hidden = false;
      })
      .then(function () {
        refreshing = false;
        if (refreshAgain) { refreshAgain = false; refresh(); }
      });
  }
})();

// ---- Quick add: what the line will become, while it is typed ----------
// The box asks the server's own parser (POST /v1/tasks/preview, the code
// POST /v1/tasks runs, creating nothing) 150 ms after the last keystroke
// and shows the answer, so a misreading is seen before Enter. The answer
// goes in a live region that stays in the page (empty when there is
// nothing to say), so screen readers hear each change. Enter creates
// through the API; a refused line stays in the box with the refusal beside
// it. Without this script the form posts, and a refused line comes back in
// the box the same way.
(function () {
  "use strict";
  var form = document.getElementById("quick-add");
  var box = form && form.querySelector("input[name=text]");
  var out = document.getElementById("quick-add-preview");
  var fail = document.getElementById("quick-add-error");
  if (!box || !out || !fail || !window.fetch || !window.AbortController) return;
  var timer = 0, sent = 0, inflight = null;

  function post(url, text, signal) {
    return fetch(url, {method: "POST", credentials: "same-origin", signal: signal,
      headers: {"Content-Type": "application/json", "Accept": "application/json"}, body: JSON.stringify({text: text})})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, body: j}; }); });
  }

  function showError(p) {
    fail.querySelector(".message").textContent = window.tendAPI.problemText(p, "The line could not be read.");
    var code = fail.querySelector("code");
    if (code) code.textContent = (p && p.code) || "";
    fail.hidden = false;
    box.setAttribute("aria-invalid", "true");
    out.replaceChildren();
  }

  function clearError() {
    fail.hidden = true;
    box.removeAttribute("aria-invalid");
  }

  // A due as the pages write it: "Thu 26 Nov 2026", with "09:00" when timed.
  function when(iso, allDay, zone) {
    var o = {timeZone: zone || "UTC", weekday: "short", day: "numeric", month: "short", year: "numeric"};
    if (!allDay) { o.hour = "2-digit"; o.minute = "2-digit"; o.hourCycle = "h23"; }
    var p = {};
    try {
      new Intl.DateTimeFormat("en-GB", o).formatToParts(new Date(iso)).forEach(function (x) { p[x.type] = x.value; });
    } catch (e) { return iso; }
    return p.weekday + " " + p.day + " " + p.month + " " + p.year + (allDay ? "" : " " + p.hour + ":" + p.minute);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function show(t) {
    var dl = el("dl", "fields");
    function row(field, label, value) {
      if (value === null || value === undefined || value === "") return;
      var dd = el("dd", "", value);
      dd.setAttribute("data-field", field);
      dl.appendChild(el("dt", "", label));
      dl.appendChild(dd);
    }
    row("title", "Title", t.title);
    row("due", "Due", t.due_at ? when(t.due_at, t.due_is_all_day, t.timezone) + (t.due_is_all_day ? " (all day)" : "") : "none");
    if (t.repeat) {
      var next = t.repeat.occurrences.slice(1, 3).map(function (o) { return when(o, t.due_is_all_day, t.timezone); });
      row("repeat", "Repeats", t.repeat.description + (next.length ? "; then " + next.join(", ") : ""));
    }
    row("starts", "Starts", t.starts_at ? when(t.starts_at, t.starts_is_all_day, t.timezone) : "");
    row("project", "Project", t.project_path);
    row("tags", "Tags", t.tags.map(function (g) { return "#" + g; }).join(" "));
    row("importance", "Importance", t.importance);
    row("urgency", "Urgency", t.urgency);
    row("estimate", "Estimate", t.estimate_minutes === null ? "" : t.estimate_minutes + " min");
    var read = el("p", "muted");
    read.setAttribute("data-field", "spans");
    read.appendChild(document.createTextNode(t.spans.length ? "Read: " : "Nothing read as a date, repeat or marker: all of it is the title."));
    t.spans.forEach(function (s, i) {
      if (i) read.appendChild(document.createTextNode(", "));
      read.appendChild(el("mark", "", s.text));
      read.appendChild(document.createTextNode(" as " + (s.kind === "priority" ? "importance/urgency" : s.kind)));
    });
    out.replaceChildren(el("p", "quick-head", "Will add:"), dl, read);
  }

  function preview() {
    var text = box.value;
    if (inflight) inflight.abort();
    if (!text.trim()) { out.replaceChildren(); clearError(); return; }
    var mine = ++sent;
    inflight = new AbortController();
    post(form.getAttribute("data-preview"), text, inflight.signal).then(function (res) {
      if (mine !== sent) return;
      if (res.ok) { clearError(); show(res.body); } else { showError(res.body); }
    }).catch(function () { /* aborted by a newer keystroke, or offline: the form still works */ });
  }

  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(preview, 150);
  });

  form.addEventListener("submit", function (e) {
    // The live refresh must go on if the line comes back refused: this
    // submit does not leave the page (the document's listener would say so).
    e.preventDefault();
    e.stopPropagation();
    clearTimeout(timer);
    if (inflight) inflight.abort();
    sent++;
    post(form.getAttribute("data-create"), box.value).then(function (res) {
      if (res.ok) { location.href = "/?added=" + res.body.ref; return; }
      showError(res.body);
      box.focus();
    }).catch(function () { form.submit(); });
  });

  if (box.value && fail.hidden) preview();
})();

// ---- The installable app ------------------------------------------------
// The service worker (/sw.js) shows pushes and keeps the last Today and
// task pages for reading offline. A page it answered from that copy has
// data-offline on its body, the time the copy was made; the page says so.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () { /* no worker: the pages work as before */ });
  }
  var at = document.body.getAttribute("data-offline");
  var main = document.getElementById("main");
  if (at === null || !main) return;
  var made = new Date(at), now = new Date();
  var o = {hour: "2-digit", minute: "2-digit", hourCycle: "h23"};
  if (made.toDateString() !== now.toDateString()) { o.weekday = "short"; o.day = "numeric"; o.month = "short"; }
  var p = document.createElement("p");
  p.id = "offline-note";
  p.className = "notice";
  p.setAttribute("role", "status");
  p.textContent = "Offline: showing the copy from " + (isNaN(made) ? "earlier" : new Intl.DateTimeFormat("en-GB", o).format(made)) + ".";
  main.insertBefore(p, main.firstChild);
})();

// Copy buttons (the People page's token and snippets): hidden without
// this script, where the text is there to select by hand.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (b) {
    var label = b.textContent;
    b.hidden = false;
    b.addEventListener("click", function () {
      var from = document.getElementById(b.getAttribute("data-copy"));
      if (!from || !navigator.clipboard) return;
      navigator.clipboard.writeText(from.textContent).then(function () {
        b.textContent = "Copied";
        setTimeout(function () { b.textContent = label; }, 2000);
      });
    });
  });
})();
