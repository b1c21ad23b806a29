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
  // The page reloads itself unless the person is typing, when it says so
  // instead. A failed poll waits 15 s before the next.
  // A page that is already leaving (a form sent, a link followed) must not
  // be reloaded under the person: the reload would cancel where they go.
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
          // lists.js puts a page's lists in place when it has them.
          if (seq >= 0 && j.seq > seq && !(window.tendRefresh && window.tendRefresh())) {
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
})();
