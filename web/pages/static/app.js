// tend's pages work without this file; it adds keyboard shortcuts, live
// refresh and dragging cards on the board.
(function () {
  "use strict";

  function typing(e) {
    var t = e.target;
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }

  // Keyboard: c adds, / searches, j/k move the selection, Enter opens it,
  // ? lists the shortcuts. Never while typing in a field.
  var rows = function () { return Array.prototype.slice.call(document.querySelectorAll("[data-ref]")); };
  var selected = -1;
  function select(i) {
    var all = rows();
    if (!all.length) return;
    selected = Math.max(0, Math.min(all.length - 1, i));
    all.forEach(function (r, n) { r.classList.toggle("selected", n === selected); });
    all[selected].scrollIntoView({ block: "nearest" });
  }
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
        if (q) q.focus(); else location.href = "/search";
        break;
      case "j": select(selected + 1); break;
      case "k": select(selected - 1); break;
      case "Enter":
        var r = rows()[selected];
        if (r) { var a = r.querySelector("a[href]"); if (a) { e.preventDefault(); location.href = a.getAttribute("href"); } }
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

  // Live refresh: a long poll on /live wakes when the change feed moves.
  // The page then shows what changed without taking anything from the
  // person: with nothing typed or open it reloads; otherwise it fetches
  // itself and swaps in the new page around the forms being filled in and
  // keeps what is open (see refresh). A failed poll waits 15 s before the
  // next. A page that is already leaving (a form sent, a link followed)
  // must not be reloaded under the person: the reload would cancel where
  // they go.
  var leaving = false;
  document.addEventListener("submit", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });
  var live = document.body.getAttribute("data-live");
  if (live) {
    var seq = -1;
    var poll = function () {
      fetch(seq < 0 ? "/live" : "/live?after=" + seq, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (j) {
          if (leaving) return;
          if (seq >= 0 && j.seq > seq) refresh();
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

  function refresh() {
    var main = document.querySelector("main");
    var active = document.activeElement;
    var kept = Array.prototype.filter.call(main.querySelectorAll("form"), function (f) {
      return changed(f) || (active && active !== document.body && f.contains(active));
    });
    var open = Array.prototype.slice.call(main.querySelectorAll("details[id][open]"));
    if (!kept.length && !open.length) { location.reload(); return; }
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
      });
  }

  // Board: drag a card onto a column to move it; the card's own form (a
  // status select and a button) does the work and works without this.
  var dragged = null;
  document.querySelectorAll("article.card[draggable=true]").forEach(function (card) {
    card.addEventListener("dragstart", function () { dragged = card; });
  });
  document.querySelectorAll("section.column").forEach(function (col) {
    col.addEventListener("dragover", function (e) { e.preventDefault(); col.classList.add("drop"); });
    col.addEventListener("dragleave", function () { col.classList.remove("drop"); });
    col.addEventListener("drop", function (e) {
      e.preventDefault();
      col.classList.remove("drop");
      if (!dragged) return;
      var form = dragged.querySelector("form.move");
      var sel = form && form.querySelector("select[name=status]");
      var to = col.getAttribute("data-first-status");
      if (!sel || !to) return;
      sel.value = to;
      form.submit();
    });
  });
})();
