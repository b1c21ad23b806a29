// tend's forms work without this file; it adds the live Markdown preview
// beside a text box and the search-as-you-type picker of the link form.
// Both ask the server (POST /preview, GET /pick), so what they show is what
// the pages render and what a search finds.
(function () {
  "use strict";

  function debounce(fn, ms) {
    var t = null;
    return function () {
      clearTimeout(t);
      t = setTimeout(fn, ms);
    };
  }

  // Live preview: a textarea with data-preview="ID" renders into #ID as the
  // person types; the preview's box (hidden without this script) shows.
  function preview(box) {
    var out = document.getElementById(box.getAttribute("data-preview"));
    if (!out || box.getAttribute("data-previewing")) return;
    box.setAttribute("data-previewing", "1");
    var shell = out.closest("section[hidden]") || out;
    var sent = null;
    var render = function () {
      var text = box.value;
      if (text === sent) return;
      sent = text;
      if (!text.trim()) { shell.hidden = true; return; }
      fetch("/preview", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ text: text }).toString()
      }).then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          if (sent !== text) return; // a newer preview is on its way
          out.innerHTML = html; // rendered by the server without raw HTML; the CSP forbids inline script
          shell.hidden = false;
          out.hidden = false;
        })
        .catch(function () { sent = null; });
    };
    box.addEventListener("input", debounce(render, 300));
    if (box.value.trim()) render();
  }

  // Picker: an input with data-pick lists the items matching what is typed
  // (debounced), as a listbox; arrows move, Enter or a click picks, which
  // writes "#ref" in the input and the item's kind in target_type.
  function picker(input) {
    if (input.getAttribute("data-picking")) return;
    input.setAttribute("data-picking", "1");
    var list = document.getElementById(input.getAttribute("aria-controls"));
    var kind = input.form && input.form.querySelector("input[name=target_type]");
    if (!list) return;
    var active = -1;
    var asked = null;
    var options = function () { return Array.prototype.slice.call(list.querySelectorAll("[role=option]")); };
    var close = function () {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    };
    var mark = function (i) {
      var all = options();
      if (!all.length) return;
      active = (i + all.length) % all.length;
      all.forEach(function (o, n) { o.setAttribute("aria-selected", n === active ? "true" : "false"); });
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    };
    var pick = function (o) {
      input.value = "#" + o.getAttribute("data-ref");
      if (kind) kind.value = o.getAttribute("data-kind");
      close();
      input.focus();
    };
    var search = function () {
      var q = input.value.trim();
      if (q === asked) return;
      asked = q;
      if (!q || /^#?\d+$/.test(q)) { close(); return; }
      fetch(input.getAttribute("data-pick") + "?q=" + encodeURIComponent(q), { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          if (asked !== q) return;
          var was = active >= 0 ? options()[active].getAttribute("data-ref") : null;
          list.innerHTML = html; // escaped by the server's templates
          list.setAttribute("data-for", q);
          list.hidden = false;
          input.setAttribute("aria-expanded", "true");
          active = -1;
          // The option the person had chosen stays chosen if it is still listed.
          options().forEach(function (o, n) { if (o.getAttribute("data-ref") === was) mark(n); });
        })
        .catch(function () { asked = null; });
    };
    var later = debounce(search, 200);
    input.addEventListener("input", function () {
      if (kind) kind.value = "";
      later();
    });
    input.addEventListener("keydown", function (e) {
      if (list.hidden) return;
      switch (e.key) {
        case "ArrowDown": e.preventDefault(); mark(active + 1); break;
        case "ArrowUp": e.preventDefault(); mark(active - 1); break;
        case "Enter":
          if (active >= 0) { e.preventDefault(); picked = true; pick(options()[active]); }
          break;
        case "Escape": e.preventDefault(); close(); break;
      }
    });
    // Enter on an option picks it and sends nothing: a keypress that
    // arrives on its own after the keydown (as some input tools send it)
    // must not submit the form either.
    var picked = false;
    input.addEventListener("keypress", function (e) { if (e.key === "Enter" && picked) e.preventDefault(); });
    input.addEventListener("keyup", function () { picked = false; });
    list.addEventListener("mousedown", function (e) {
      var o = e.target.closest("[role=option]");
      if (o) { e.preventDefault(); pick(o); }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  // Each page (and each part a live update puts in, see app.js) is set up
  // once; the markers keep a field from being wired twice.
  function wire(root) {
    root.querySelectorAll("textarea[data-preview]").forEach(preview);
    root.querySelectorAll("input[data-pick]").forEach(picker);
  }
  wire(document);
  document.addEventListener("tend:swapped", function () { wire(document); });
})();
