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
  // The page reloads itself unless the person is typing, when it says so
  // instead. A failed poll waits 15 s before the next.
  // A page that is already leaving (a form sent, a link followed) must not
  // be reloaded under the person: the reload would cancel where they go.
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
          if (seq >= 0 && j.seq > seq) {
            var busy = document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName) && document.activeElement.value;
            if (!busy) { location.reload(); return; }
            var n = document.getElementById("live-note");
            if (n) n.hidden = false;
          }
          seq = j.seq;
          poll();
        })
        .catch(function () { setTimeout(poll, 15000); });
    };
    poll();
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
