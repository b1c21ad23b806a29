package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserFinish is issue 34's §6 for the web app and §1's feed page,
// at 1280 and 390 px: the feed page says why a feed of one's own work is
// empty when nobody is assigned anything and offers the workspace's; rows
// show importance (!4) and tags, not the priority score; the Tasks table
// breaks no word; the board's cards hide their Move form when the script
// runs; a completed row that was its section's only one stays with its
// Undo; the cursor stays in the quick-add box after an add; the link form
// makes a link that fits a document; no page says "version N"; the
// signed-out page speaks plainly; every page has an icon.
// Its NoScript subtest walks the same without JavaScript, where each
// applies. Every page is photographed and checked as the other flows are.
func TestBrowserFinish(t *testing.T) { walkTwice(t, browserFinish) }

func browserFinish(w *walk) {
	t, noScript := w.t, w.noScript
	run, shot, send, want := w.run, w.shot, w.send, w.want
	// A fresh server: the refs are 1 and 2. Nothing is assigned yet, as in a
	// workspace where one person works alone.
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"text": "Renew the passport before the summer holidays begin today !4 #errands"}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/documents", map[string]any{"title": "Passport rules", "type": "note", "body": "Two photos."}, http.StatusCreated)

	w.open("/account", `#calendars`)
	if want("the feed page says why a feed of my work is empty", `/my work[^]*assigned to nobody/.test((document.getElementById("feed-hint") || {}).innerText)`) {
		shot("finish-feed-hint")
		send("issue the workspace's feed", chromedp.Click(chromedp.CSS(`#feed-hint button`)), chromedp.WaitVisible(chromedp.CSS(`#new-feed`)))
		want("the workspace's feed is issued", `document.querySelector("#calendars table").innerText.includes("the workspace")`)
	}
	w.api(http.MethodPatch, "/v1/tasks/1", map[string]any{"assignee": "admin"}, http.StatusOK)
	w.open("/account", `#calendars`)
	want("once a dated task is mine, no word of an empty feed", `!document.getElementById("feed-hint")`)

	w.open("/", `#t-1`)
	want("Today's row shows importance and tag", `/!4[^]*#errands/.test(document.querySelector("#t-1").innerText)`)
	w.icon()
	for _, width := range []int64{1280, 390} {
		run("the width", chromedp.EmulateViewport(width, 900))
		w.open("/tasks", `#t-1`)
		want(fmt.Sprintf("at %d px the Tasks row shows importance and tag, not a score", width),
			`(function (s) { return s.includes("!4") && s.includes("#errands") && !/\d\.\d/.test(s); })(document.querySelector("#t-1").innerText)`)
		if broken := w.eval(`JSON.stringify(` + brokenWords + `)`); broken != "[]" {
			t.Errorf("at %d px the Tasks table breaks words: %s", width, broken)
		}
	}
	run("the width", chromedp.EmulateViewport(1280, 900))
	want("the Tasks table has Importance, not Priority", `(function (s) { return s.includes("Importance") && !s.includes("Priority"); })(document.querySelector("#task-list thead").innerText)`)
	shot("finish-tasks")

	w.open("/board", `#t-1`)
	want("the card's Move form is there only without the script", fmt.Sprintf(`getComputedStyle(document.querySelector("#t-1 form.move")).display === %q`,
		map[bool]string{false: "none", true: "flex"}[noScript]))
	shot("finish-board")

	w.open("/tasks/1", `#link-add`)
	if want("the link form starts at the type that fits what is picked", `document.getElementById("link-type").value === ""`) {
		send("link the document", chromedp.SendKeys(chromedp.CSS(`#link-target`), "#2"), chromedp.Submit(chromedp.CSS(`#link-target`)),
			chromedp.WaitVisible(chromedp.CSS(`#links ul.links`)))
		want("the task is documented by the document", `/is documented by[^]*Passport rules/.test(document.querySelector("#links ul.links").innerText)`)
	}
	for _, page := range []string{"/tasks/1", "/documents/2", "/projects/inbox"} {
		w.open(page, `main h1`)
		want(page+" shows no version", `!/\bversion \d+/i.test(document.body.innerText)`)
	}
	shot("finish-task")

	if !noScript {
		w.completeAlone()
	}

	w.open("/", `#quick-add-text`)
	run("add a line", chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), "Water the fern tomorrow"), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.Search(`//div[@id="added"]//strong[text()="Water the fern"]`)))
	want("after adding, the focus stays in the quick-add box", `document.activeElement.id === "quick-add-text"`)

	w.open("/signin", `#signed-out`)
	want("the signed-out page says what tend is and to ask for a link",
		`(function (s) { return s.includes("tend") && s.includes("sign-in link") && s.includes("ask"); })(document.getElementById("signed-out").innerText)`)
	want("the signed-out page shows no codes", `!/\/v1\/|POST|401|unauthorized/.test(document.getElementById("signed-out").innerText)`)
	w.icon()
	shot("finish-signed-out")
}

// brokenWords lists the words of the Tasks table that the page breaks
// across lines, and the headings wider than their cells: each word's
// range has one box per line it is drawn on.
const brokenWords = `(Array.from(document.querySelectorAll("#task-list th, #task-list td")).flatMap(function (cell) {
	var out = cell.tagName === "TH" && cell.scrollWidth > cell.clientWidth ? ["heading " + cell.textContent + " overflows"] : [];
	var walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), n;
	while ((n = walk.nextNode())) {
		var re = /\S+/g, m;
		while ((m = re.exec(n.data))) {
			var r = document.createRange();
			r.setStart(n, m.index);
			r.setEnd(n, m.index + m[0].length);
			var lines = new Set(Array.from(r.getClientRects()).filter(function (b) { return b.width > 0; }).map(function (b) { return Math.round(b.top); }));
			if (lines.size > 1) out.push(m[0]);
		}
	}
	return out;
}))`

// completeAlone completes the only task of Today's "Today" section in
// place: the row stays where it was, with its Undo, through the live
// refresh that the completion sets off, and Undo reopens it there.
func (w *walk) completeAlone() {
	w.t.Helper()
	w.open("/", `#l-today #t-1`)
	if n := w.eval(`String(document.querySelectorAll("#l-today [data-ref]").length)`); n != "1" {
		w.t.Fatalf("Today's section holds %s rows; want only #1", n)
	}
	w.eval(`(function () {
		var f = window.fetch, page = location.pathname + location.search;
		window.reads = 0;
		window.fetch = function (u) {
			var p = f.apply(this, arguments);
			if (u === page) p.then(function () { setTimeout(function () { window.reads++; }, 300); });
			return p;
		};
		return "";
	})()`)
	w.run("complete it", chromedp.Click(chromedp.CSS(`#t-1 button.check`)))
	w.until("the list has read itself again", `window.reads > 0 && document.getElementById("toast").textContent.includes("Undo")`)
	if !w.want("the completed row stays in its section", `!!document.querySelector('#l-today #t-1 button.check[aria-checked="true"]')`) {
		return
	}
	w.shot("finish-completed-alone")
	w.run("undo", chromedp.Click(chromedp.CSS(`#toast .toast-box button.plain:not(.toast-close)`)))
	w.until("the row is open again where it was", `!!document.querySelector('#l-today #t-1 button.check[aria-checked="false"]')`)
}

// icon wants the page to name an SVG icon, which the server serves.
func (w *walk) icon() {
	w.t.Helper()
	href := w.eval(`(document.querySelector('link[rel="icon"]') || {}).href || ""`)
	if href == "" {
		w.t.Errorf("%s names no icon", w.eval(`location.pathname`))
		return
	}
	res, err := http.Get(href)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(b), "<svg") {
		w.t.Errorf("the icon %s answers %d %q: %.40q", href, res.StatusCode, res.Header.Get("Content-Type"), b)
	}
}

// want evaluates cond in the page and reports whether it holds; when it
// does not, the test fails (and goes on) saying what was wanted.
func (w *walk) want(what, cond string) bool {
	w.t.Helper()
	if w.eval(`String(!!(`+cond+`))`) == "true" {
		return true
	}
	w.t.Errorf("%s: not so at %s", what, w.eval(`location.pathname`))
	return false
}

// eval evaluates expr in the page (letting scripts run for it on a page
// that has them off) and returns its value as text.
func (w *walk) eval(expr string) string {
	w.t.Helper()
	var out string
	w.sh.scripted(func() {
		v, err := chromedp.Run(w.ctx, chromedp.Evaluate[json.RawMessage](expr))
		if err != nil {
			w.t.Fatalf("evaluating %.60s: %v", expr, err)
		}
		if err := json.Unmarshal(v, &out); err != nil {
			out = fmt.Sprint(string(v))
		}
	})
	return out
}
