// tend's lists, with the script. Every row (rows.html) has forms that work
// without it; this puts their answers in place instead of reloading:
// - a row's checkbox completes (again: reopens), with an Undo toast; a
//   repeating task's next occurrence shows under it; a card's move and a
//   row's delete (its menu) have Undo too;
// - the list keys: j/k or ↓/↑ select a row, Enter opens it, d completes,
//   x ticks its box for the list's bar (where there is none: completes),
//   e edits, a assigns to me, t sets the due date in a small prompt;
// - on a list with the bar (Tasks, Today), Shift and a click on a row's
//   box ticks every box from the last one clicked; the bar counts them;
// - live refresh (app.js's long poll) reads the page again and puts its
//   lists ([data-region]) in place, keeping the selection, what is being
//   typed, and the rows acted on where the person left them.
// A row action posts with X-Tend-Fragment (the row's kind) and the server
// answers the row rendered again, or a problem document.
(function () {
  "use strict";

  function typing(e) {
    var t = e.target;
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }
  function q(sel, root) { return (root || document).querySelector(sel); }
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function byRef(ref, root) { return q('main [data-ref="' + ref + '"]', root); }

  // ---- Rows and the selection --------------------------------------------
  function rows() { return all("main [data-ref]"); }
  function titleOf(row) {
    var a = q("a.title", row) || q("a[href]", row);
    return a ? a.textContent.trim() : "#" + row.getAttribute("data-ref");
  }
  // The selected row: the one holding the focus, else the one j/k chose.
  function selected() {
    var a = document.activeElement;
    var r = a && a.closest && a.closest("main [data-ref]");
    return r || q("main [data-ref].selected");
  }
  var lastRef = "";
  function select(row, focus) {
    if (!row) return;
    lastRef = row.getAttribute("data-ref");
    all("main [data-ref].selected").forEach(function (r) { r.classList.remove("selected"); });
    row.classList.add("selected");
    if (!row.hasAttribute("tabindex")) row.tabIndex = -1;
    if (focus) row.focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest" });
  }
  function step(by) {
    var list = rows();
    if (!list.length) return;
    var i = list.indexOf(selected());
    select(list[i < 0 ? (by > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, i + by))], true);
  }

  // ---- The toast ----------------------------------------------------------
  // One message at a time, kept until the next or until closed: a person
  // may need longer than any timeout to reach Undo.
  function toast(parts) {
    var box = document.getElementById("toast");
    if (!box) return;
    var inner = document.createElement("div");
    inner.className = "toast-box";
    parts.forEach(function (p) {
      inner.appendChild(typeof p === "string" ? document.createTextNode(p) : p);
    });
    var close = button("Close", "plain toast-close", function () { box.textContent = ""; });
    close.setAttribute("aria-label", "Close the message");
    close.textContent = "×";
    inner.appendChild(close);
    box.textContent = "";
    box.appendChild(inner);
  }
  function button(text, cls, onclick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  }
  function quoted(s) { return "“" + s + "”"; }

  // ---- Acting on a row in place -------------------------------------------
  function post(action, fields, kind) {
    return fetch(action, {
      method: "POST", credentials: "same-origin", body: fields,
      headers: { "X-Tend-Fragment": kind, "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      if (r.ok) return r.text().then(function (html) {
        var t = document.createElement("template");
        t.innerHTML = html;
        return Array.prototype.slice.call(t.content.children);
      });
      if ((r.headers.get("Content-Type") || "").indexOf("problem+json") >= 0) {
        return r.json().then(function (p) { throw p; });
      }
      throw { detail: "The server answered " + r.status + ". Reload the page and try again." };
    }, function () {
      throw { detail: "The server could not be reached; nothing was changed. Try again." };
    });
  }

  // run posts action for row with fields and puts the answer in its place.
  function run(row, action, fields, said) {
    if (row.getAttribute("aria-busy") === "true") return;
    var before = { status: row.getAttribute("data-status"), title: titleOf(row), sel: row === selected() };
    row.setAttribute("aria-busy", "true");
    fields.set("back", location.pathname + location.search);
    post(action, fields, row.getAttribute("data-kind")).then(function (els) {
      var fresh = els[0], next = els[1];
      if (!fresh) throw { detail: "The server's answer could not be read. Reload the page." };
      if (!row.parentNode) row = byRef(fresh.getAttribute("data-ref")) || row;
      row.replaceWith(fresh);
      hold(fresh);
      if (next && !byRef(next.getAttribute("data-ref"))) {
        next.classList.add("next");
        fresh.after(next);
        hold(next);
      }
      if (before.sel) select(fresh, true);
      acted++;
      fresh.dispatchEvent(new CustomEvent("tend:row", { bubbles: true }));
      said(fresh, before, next);
      later();
    }).catch(function (p) {
      row.removeAttribute("aria-busy");
      refused(p, before.title);
      later();
    });
  }

  function refused(p, title) {
    var msg = p && p.detail;
    if (Array.isArray(msg)) msg = msg.map(function (d) { return d.msg; }).join("; ");
    if (p && p.code === "version_conflict") {
      msg = "Someone changed " + quoted(title) + " since this list was loaded, so your change was not saved. " +
        "The list now shows it as it is; try again.";
      if (!refresh()) {
        var a = document.createElement("a");
        a.href = location.pathname + location.search;
        a.textContent = "Reload";
        return toast([msg + " ", a]);
      }
    }
    toast([msg || "That was refused."]);
  }

  var said = {
    done: function (row, before, next) {
      var undo = button("Undo", "plain", function () { reopen(row.getAttribute("data-ref"), before.status); });
      toast(["Completed " + quoted(before.title) + "." + (next ? " The next one is below it." : "") + " ", undo]);
    },
    reopen: function (row, before) { toast(["Reopened " + quoted(before.title) + "."]); },
    assign: function (row, before) { toast(["Assigned " + quoted(before.title) + " to you."]); },
    due: function (row, before) {
      var due = row.getAttribute("data-due-text");
      toast([due ? quoted(before.title) + " is due " + due + "." : quoted(before.title) + " has no due date now."]);
    },
    status: function (row, before) {
      var o = q("select[name=status] option:checked", row);
      var undo = button("Undo", "plain", function () {
        var now = byRef(row.getAttribute("data-ref"));
        if (now) rowPost(now, "status", { status: before.status });
      });
      toast(["Moved " + quoted(before.title) + " to " + (o ? o.textContent : row.getAttribute("data-status")) + ". ", undo]);
    }
  };

  // ---- Deleting a row, and Undo -------------------------------------------
  // The row's menu posts its delete in place: the row leaves the list and
  // the toast offers Undo, which restores the task and puts its row back
  // where it was. A task with subtasks is confirmed first, naming how many
  // go with it (the button's data-confirm).
  function remove(form) {
    var row = form.closest("main [data-ref]");
    if (!row || row.getAttribute("aria-busy") === "true") return false;
    var btn = q("button[data-confirm]", form);
    if (btn && !window.confirm(btn.getAttribute("data-confirm"))) return true;
    var ref = row.getAttribute("data-ref"), title = titleOf(row), kind = row.getAttribute("data-kind");
    var n = Number((q("input[name=subtasks]", form) || {}).value || 0);
    var parent = row.parentNode, next = row.nextElementSibling, sel = row === selected();
    var fields = new URLSearchParams(new FormData(form));
    fields.set("back", location.pathname + location.search);
    row.setAttribute("aria-busy", "true");
    post(form.getAttribute("action"), fields, kind).then(function () {
      if (sel) step(next ? 1 : -1);
      row.remove();
      acted++;
      var undo = button("Undo", "plain", function () {
        var f = new URLSearchParams({ kind: "task", back: location.pathname + location.search });
        post("/trash/" + ref + "/restore", f, kind).then(function (els) {
          var fresh = els[0];
          if (!fresh) throw { detail: "The server's answer could not be read. Reload the page." };
          if (next && next.parentNode === parent) parent.insertBefore(fresh, next); else parent.appendChild(fresh);
          acted++;
          select(fresh, true);
          toast(["Restored " + quoted(title) + "."]);
          later();
        }).catch(function (p) { refused(p, title); });
      });
      var trash = document.createElement("a");
      trash.href = "/trash";
      trash.textContent = "trash";
      toast(["Moved " + quoted(title) + " to the ", trash, (n ? " with its " + n + " subtask" + (n === 1 ? "" : "s") : "") + ". ", undo]);
      later();
    }).catch(function (p) {
      row.removeAttribute("aria-busy");
      refused(p, title);
      later();
    });
    return true;
  }
  function verb(action) { return action.slice(action.lastIndexOf("/") + 1); }

  // act sends one of a row's forms in place.
  function act(form) {
    var row = form.closest("main [data-ref]");
    if (!row) return false;
    var action = form.getAttribute("action");
    run(row, action, new URLSearchParams(new FormData(form)), said[verb(action)] || function () {});
    return true;
  }
  function reopen(ref, status) {
    var row = byRef(ref);
    if (!row) return;
    var f = new URLSearchParams();
    f.set("expected_version", row.getAttribute("data-version"));
    if (status) f.set("status", status);
    run(row, "/tasks/" + ref + "/reopen", f, said.reopen);
  }
  function rowPost(row, what, fields) {
    var f = new URLSearchParams(fields || {});
    f.set("expected_version", row.getAttribute("data-version"));
    run(row, "/tasks/" + row.getAttribute("data-ref") + "/" + what, f, said[what]);
  }

  // In the capture phase, so app.js (which marks the page as leaving on a
  // submit) sees a submit this answers in place as prevented.
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (f.matches && f.matches("form.check, form.move, form.due-prompt") && act(f)) e.preventDefault();
    else if (f.matches && f.matches("main [data-ref] form.delete") && remove(f)) e.preventDefault();
  }, true);

  // ---- The due prompt (t) -------------------------------------------------
  function duePrompt(row) {
    var open = q("form.due-prompt");
    if (open) open.remove();
    var ref = row.getAttribute("data-ref");
    var f = document.createElement("form");
    f.className = "due-prompt";
    f.method = "post";
    f.action = "/tasks/" + ref + "/due";
    var label = document.createElement("label");
    label.htmlFor = "due-" + ref;
    label.textContent = "Due";
    var input = document.createElement("input");
    input.id = "due-" + ref;
    input.name = "until";
    input.autocomplete = "off";
    input.value = row.getAttribute("data-due") || "";
    input.placeholder = "fri 9am, tomorrow, 2026-12-01";
    input.setAttribute("aria-describedby", "due-help-" + ref);
    var help = document.createElement("span");
    help.id = "due-help-" + ref;
    help.className = "muted";
    help.textContent = "a date or phrase; empty clears; Esc cancels";
    var v = document.createElement("input");
    v.type = "hidden";
    v.name = "expected_version";
    v.value = row.getAttribute("data-version");
    var ok = document.createElement("button");
    ok.type = "submit";
    ok.textContent = "Set";
    [label, input, ok, help, v].forEach(function (n) { f.appendChild(n); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { e.preventDefault(); f.remove(); select(row, true); }
    });
    (q(".line", row) || q("td a.title", row) && q("td a.title", row).parentNode || row).appendChild(f);
    input.focus();
    input.select();
  }

  // ---- Keys ---------------------------------------------------------------
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
    var row = selected();
    var onRow = row && document.activeElement === row;
    switch (e.key) {
      case "j": step(1); break;
      case "k": step(-1); break;
      case "ArrowDown": if (onRow) { e.preventDefault(); step(1); } break;
      case "ArrowUp": if (onRow) { e.preventDefault(); step(-1); } break;
      case "Enter":
        if (row && (onRow || document.activeElement === document.body)) {
          var a = q("a.title", row) || q("a[href]", row);
          if (a) { e.preventDefault(); location.href = a.getAttribute("href"); }
        }
        break;
      case "x":
        var box = row && pickOf(row);
        if (box) { e.preventDefault(); box.checked = !box.checked; picked(); break; }
        /* falls through: a list without the bar completes */
      case "d":
        var check = row && q("form.check", row);
        if (check) { e.preventDefault(); act(check); }
        break;
      case "e":
        if (row && q("form.check", row)) { e.preventDefault(); location.href = "/tasks/" + row.getAttribute("data-ref") + "#e-title"; }
        break;
      case "a":
        if (row && q("form.check", row)) { e.preventDefault(); rowPost(row, "assign"); }
        break;
      case "t":
        if (row && q("form.check", row)) { e.preventDefault(); duePrompt(row); }
        break;
    }
  });
  // A click on a row (not on a control in it) selects it.
  document.addEventListener("click", function (e) {
    var row = e.target.closest && e.target.closest("main [data-ref]");
    if (row && !e.target.closest("a, button, input, select, textarea, label")) select(row, true);
  });
  // e from a list: the task page opens at its edit form's title. The
  // browser opens the closed section holding it and focuses it, as it does
  // for any fragment naming a field; this does the same where it does not.
  var title = location.hash === "#e-title" && document.getElementById("e-title");
  if (title) {
    var d = title.closest("details");
    if (d) d.open = true;
    title.focus();
  }

  // ---- Picking rows for the bar -------------------------------------------
  // A row's box (rows.html's pick) shown where the list has the bar.
  function pickOf(row) {
    var box = q("input.pick", row);
    return box && box.closest(".picking") ? box : null;
  }
  function picks() { return all(".picking input.pick"); }
  // picked marks the ticked rows and counts them in the bar.
  function picked() {
    var n = 0;
    picks().forEach(function (b) {
      var row = b.closest("[data-ref]");
      if (row) row.classList.toggle("picked", b.checked);
      if (b.checked) n++;
    });
    var count = document.getElementById("bulk-count");
    if (count) count.textContent = n ? "(" + n + ")" : "";
  }
  var lastPick = null;
  document.addEventListener("click", function (e) {
    var box = e.target.closest && e.target.closest("input.pick");
    if (!box) return;
    var list = picks(), from = list.indexOf(lastPick), to = list.indexOf(box);
    if (e.shiftKey && from >= 0 && to >= 0) {
      list.slice(Math.min(from, to), Math.max(from, to) + 1).forEach(function (b) { b.checked = box.checked; });
    }
    lastPick = box;
    picked();
  });

  // ---- Rows acted on stay where they were ----------------------------------
  // A row acted on in place is held where the person saw it (a completed
  // task on Today, which the refreshed agenda no longer lists; a task whose
  // new due would sort it elsewhere) until they leave the page. Cards are
  // not held: the board always shows where every card is now.
  var held = [];
  function hold(row) {
    if (row.getAttribute("data-kind") === "card" || !row.parentNode || !row.parentNode.id) return;
    var ref = row.getAttribute("data-ref");
    held = held.filter(function (h) { return h.ref !== ref; });
    var prev = row.previousElementSibling;
    held.push({ ref: ref, el: row, parent: row.parentNode.id, after: prev ? prev.getAttribute("data-ref") : "", next: row.classList.contains("next") });
  }
  function placeHeld() {
    held.forEach(function (h) {
      var parent = document.getElementById(h.parent);
      if (!parent) return;
      var fresh = byRef(h.ref);
      if (fresh) h.el = fresh;
      h.el.classList.toggle("next", h.next);
      var prev = h.after && q(':scope > [data-ref="' + h.after + '"]', parent);
      if (prev) prev.after(h.el); else parent.insertBefore(h.el, parent.firstChild);
    });
  }

  // ---- Live refresh in place ----------------------------------------------
  // acted counts the row actions put in place: a list read before one of
  // them landed shows the row as it was, so it is read again instead.
  var refreshing = false, again = false, waiting = false, acted = 0, pressing = false;
  // Not while a pointer is pressed (a row put in place under a press loses
  // its click), a card is dragged, a field in a list is in use or a row's
  // action is on its way: then once that is over.
  function inUse() {
    if (pressing || q("#board-columns .dragging, main [data-ref][aria-busy=true]")) return true;
    var a = document.activeElement;
    return a && a.closest && a.closest("[data-region]") && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName);
  }
  function refresh() {
    var regions = all("[data-region]");
    if (!regions.length) return false;
    if (refreshing) { again = true; return true; }
    if (inUse()) { waiting = true; return true; }
    refreshing = true;
    var seen = acted;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        if (inUse()) { waiting = true; return; }
        if (acted !== seen) { again = true; return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var sel = selected(), ref = sel && sel.getAttribute("data-ref");
        var focused = sel && sel.contains(document.activeElement);
        var ticked = picks().filter(function (b) { return b.checked; }).map(function (b) { return b.closest("[data-ref]").getAttribute("data-ref"); });
        all("[data-region]").forEach(function (old) {
          var neu = doc.getElementById(old.id);
          if (neu) patch(old, document.importNode(neu, true));
        });
        ticked.forEach(function (r) { var row = byRef(r), box = row && pickOf(row); if (box) box.checked = true; });
        picked();
        placeHeld();
        if (ref && byRef(ref)) select(byRef(ref), focused);
      })
      .catch(function () {})
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
    return true;
  }
  // patch puts a region read again in place of old. When only rows changed
  // (the same rows in the same places), only those are replaced, so the
  // rest keep their focus, hover and any press in progress; else the region
  // is replaced whole.
  function patch(old, neu) {
    carry(old, neu);
    // A held row the fresh list no longer has stays where it is.
    var gone = {};
    held.forEach(function (h) { if (!q('[data-ref="' + h.ref + '"]', neu)) gone[h.ref] = true; });
    if (skeleton(old, gone) !== skeleton(neu, {})) { old.replaceWith(neu); return; }
    all("[data-ref]", neu).forEach(function (n) {
      var o = q('[data-ref="' + n.getAttribute("data-ref") + '"]', old);
      if (o && !same(o, n)) o.replaceWith(n);
    });
  }
  // carry keeps in neu the list of a held row that the fresh page no
  // longer has (a section whose only row was completed), holding just the
  // held rows, where it stood among the lists, so the row stays in place
  // with its Undo.
  function carry(old, neu) {
    held.forEach(function (h) {
      var id = "#" + CSS.escape(h.parent), list = q(id, old);
      if (!list || q(id, neu)) return;
      var box = list.closest("section") || list;
      if (box === old || !old.contains(box)) return;
      var copy = box.cloneNode(true);
      all("[data-ref]", copy).forEach(function (r) {
        var ref = r.getAttribute("data-ref");
        if (!held.some(function (k) { return k.ref === ref; })) r.remove();
      });
      for (var prev = box.previousElementSibling; prev; prev = prev.previousElementSibling) {
        var l = q("[id]", prev), at = l && q("#" + CSS.escape(l.id), neu);
        if (at) { (at.closest("section") || at).after(copy); return; }
      }
      neu.insertBefore(copy, neu.firstChild);
    });
  }
  function skeleton(region, gone) {
    var c = region.cloneNode(true);
    all("[data-ref]", c).forEach(function (r) {
      if (gone[r.getAttribute("data-ref")]) { r.remove(); return; }
      var k = document.createElement("i");
      k.setAttribute("data-k", r.getAttribute("data-ref"));
      r.replaceWith(k);
    });
    return c.innerHTML.replace(/\s+/g, " ");
  }
  // same reports whether a row shows what its fresh copy does, leaving out
  // what the script added to it (the selection and its tabindex, the mark
  // of a next occurrence, a prompt).
  function same(o, n) {
    var c = o.cloneNode(true);
    c.classList.remove("selected", "next", "picked");
    c.removeAttribute("aria-busy");
    if (!n.hasAttribute("tabindex")) c.removeAttribute("tabindex");
    all("form.due-prompt", c).forEach(function (f) { f.remove(); });
    return c.outerHTML === n.outerHTML;
  }
  function later() { if (waiting) { waiting = false; setTimeout(refresh, 0); } }
  // A page without lists of its own to refresh (a project's, a task's) is
  // put in place whole by app.js, which asks holding() first and then says
  // tend:swapped: the rows acted on go back where they were, and the row
  // that was selected is again.
  function holding() {
    var t = document.getElementById("toast");
    return held.length > 0 || !!(t && t.childElementCount);
  }
  document.addEventListener("tend:swapped", function () {
    placeHeld();
    var row = lastRef && byRef(lastRef);
    if (row) select(row, document.activeElement === document.body);
  });
  function released() { pressing = false; later(); }
  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  document.addEventListener("pointerup", released);
  document.addEventListener("pointercancel", released);
  document.addEventListener("focusout", later);
  window.tendRefresh = refresh;
  window.tendLists = { selected: selected, select: select, act: act, toast: toast, refresh: refresh, later: later, holding: holding };
})();
