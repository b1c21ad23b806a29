// tend's board, with the script: drag a card onto another column, or
// select it and press ← or →, to move it there. Both send the card's own
// move form (which works without the script: a status menu and Move) in
// place through lists.js, with the version the card was shown at, so a card
// someone changed meanwhile is refused and shown as it is now. tend keeps no
// order among the tasks of a status (a column lists them oldest first), so
// a move changes the column only. A mouse drags a card from anywhere but its
// controls; a finger from its grip, so the board still scrolls by touch.
(function () {
  "use strict";

  // With the script a card moves by drag or key, so its form (the way
  // without it) is hidden; the moves still send it (lists.css).
  document.documentElement.classList.add("board-script");

  function columns() { return Array.prototype.slice.call(document.querySelectorAll("#board-columns section.column")); }
  function cardOf(el) { return el && el.closest ? el.closest("#board-columns article.card") : null; }

  // move sends card to col's first status.
  function move(card, col) {
    var form = card.querySelector("form.move");
    var sel = form && form.querySelector("select[name=status]");
    var to = col.getAttribute("data-first-status");
    if (!sel || !to || col.contains(card)) return;
    sel.value = to;
    window.tendLists.act(form);
  }

  // A card that came back from a move goes to its status's column, among
  // the others in the order the board lists them (oldest, so lowest ref,
  // first), and the columns are counted again.
  document.addEventListener("tend:row", function (e) {
    var card = e.target;
    if (!card.matches("#board-columns article.card")) return;
    var list = document.querySelector('#board-columns section.column[data-category="' + card.getAttribute("data-category") + '"] .cards');
    if (list && card.parentNode !== list) {
      var ref = +card.getAttribute("data-ref"), before = null;
      Array.prototype.some.call(list.children, function (c) {
        if (+c.getAttribute("data-ref") > ref) { before = c; return true; }
        return false;
      });
      var focused = card.contains(document.activeElement);
      list.insertBefore(card, before);
      if (focused) card.focus({ preventScroll: true });
      card.scrollIntoView({ block: "nearest" });
    }
    columns().forEach(function (col) {
      var n = col.querySelector("h2 .count");
      if (n) n.textContent = col.querySelectorAll("article.card").length;
    });
  });

  // ← / →: the selected card (the one holding the focus, or chosen with
  // j/k) moves to the column before or after its own.
  document.addEventListener("keydown", function (e) {
    if ((e.key !== "ArrowLeft" && e.key !== "ArrowRight") || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var card = cardOf(window.tendLists.selected());
    if (!card) return;
    var cols = columns(), i = cols.indexOf(card.closest("section.column")) + (e.key === "ArrowRight" ? 1 : -1);
    e.preventDefault();
    if (i >= 0 && i < cols.length) move(card, cols[i]);
  });

  // Dragging, with pointer events (mouse, pen and touch alike).
  var drag = null;
  function columnAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("#board-columns section.column") : null;
  }
  function mark(col) {
    columns().forEach(function (c) { c.classList.toggle("drop", c === col); });
  }
  function end() {
    if (!drag) return;
    drag.card.classList.remove("dragging");
    document.body.classList.remove("dragging-card");
    drag.card.style.transform = "";
    mark(null);
    drag = null;
    window.tendLists.later();
  }
  document.addEventListener("pointerdown", function (e) {
    var card = cardOf(e.target);
    if (!card || e.button !== 0 || e.target.closest("a, button, select, input, label, textarea, form.move")) return;
    if (e.pointerType !== "mouse" && !e.target.closest(".grip")) return;
    drag = { card: card, from: card.closest("section.column"), x: e.clientX, y: e.clientY, id: e.pointerId, on: false };
  });
  document.addEventListener("pointermove", function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.on) {
      if (Math.abs(dx) + Math.abs(dy) < 6) return;
      drag.on = true;
      drag.card.classList.add("dragging");
      document.body.classList.add("dragging-card");
      if (window.getSelection) window.getSelection().removeAllRanges();
      window.tendLists.select(drag.card, true);
    }
    e.preventDefault();
    drag.card.style.transform = "translate(" + dx + "px, " + dy + "px)";
    var col = columnAt(e.clientX, e.clientY);
    mark(col !== drag.from ? col : null);
  });
  document.addEventListener("pointerup", function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var card = drag.card, on = drag.on, col = on ? columnAt(e.clientX, e.clientY) : null;
    end();
    if (col) move(card, col);
  });
  document.addEventListener("pointercancel", end);
})();
