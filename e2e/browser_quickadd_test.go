package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// quickAddBrowser is a signed-in browser on a fresh `tend serve`, with
// what the quick-add tests need.
type quickAddBrowser struct{ *walk }

func newQuickAddBrowser(t *testing.T) *quickAddBrowser {
	return &quickAddBrowser{newWalk(t, false)}
}

// typeLine empties the box and types line into it, key by key.
func (b *quickAddBrowser) typeLine(line string) {
	b.t.Helper()
	b.empty()
	b.run("type "+line, chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), line))
}

// empty empties the box as a script would, without an input event.
func (b *quickAddBrowser) empty() {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("quick-add-text").value = ""; true`)); err != nil {
		b.t.Fatal(err)
	}
}

// tasks counts the open tasks through the API.
func (b *quickAddBrowser) tasks() int {
	b.t.Helper()
	status, out := apiJSON(b.t, b.base, b.token, http.MethodGet, "/v1/tasks?include_total=true", nil)
	page, _ := out["page"].(map[string]any)
	total, ok := page["total"].(float64)
	if status != http.StatusOK || !ok {
		b.t.Fatalf("listing the tasks: %d %v", status, out)
	}
	return int(total)
}

// field is what the preview says of one field ("" when it says nothing).
func (b *quickAddBrowser) field(name string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`(document.querySelector('#quick-add-preview [data-field=%q]') || {textContent: ""}).textContent`, name)))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// TestBrowserQuickAddPreview: while a line is typed, the box shows what it
// will become, from the server's parser; Enter adds it, and what Today
// then says was understood is what the preview said.
func TestBrowserQuickAddPreview(t *testing.T) {
	t.Parallel()
	b := newQuickAddBrowser(t)
	b.debounced()
	for i, c := range []struct{ line, title, repeat, tags, importance string }{
		{"Call the bank tomorrow 9am !4 #finance every month", "Call the bank", "every month at 9:00", "#finance", "4"},
		{"Weekly review every friday at 16:00", "Weekly review", "every Friday at 16:00", "", ""},
		{"Dentist next tuesday at 3pm ~1h", "Dentist", "", "", ""},
	} {
		b.typeLine(c.line)
		b.until("the preview of "+c.line, fmt.Sprintf(`(document.querySelector('#quick-add-preview [data-field=title]') || {}).textContent === %q`, c.title))
		due, repeat := b.field("due"), b.field("repeat")
		if !strings.HasPrefix(repeat, c.repeat) || (c.repeat == "") != (repeat == "") || b.field("tags") != c.tags || b.field("importance") != c.importance {
			t.Errorf("%q: preview repeat %q tags %q importance %q", c.line, repeat, b.field("tags"), b.field("importance"))
		}
		if spans := b.field("spans"); !strings.HasPrefix(spans, "Read: ") {
			t.Errorf("%q: the preview does not say what it read: %q", c.line, spans)
		}
		if i == 0 {
			b.sh.page("quick-add-preview")
		}
		b.run("press Enter", chromedp.KeyEvent("\r"),
			chromedp.WaitVisible(chromedp.Search(`//div[@id="added"]//strong[text()="`+c.title+`"]`)))
		added := strings.TrimSpace(b.text(`#added`))
		if !strings.Contains(added, strings.TrimSuffix(due, " (all day)")) || !strings.Contains(added, c.repeat) {
			t.Errorf("%q: the preview said due %q, repeat %q; Today says it added:\n%s", c.line, due, repeat, added)
		}
		if got, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.CSS(`#quick-add-text`))); got != "" {
			t.Errorf("after adding, the box holds %q", got)
		}
	}
}

// debounced types a line as a burst of input events, each character its
// own event, all in one task of the page (as fast typing looks to it), and
// checks that the box asked for one preview only, of the whole line: it
// waits for typing to pause, and a keystroke does not cost a request.
func (b *quickAddBrowser) debounced() {
	b.t.Helper()
	const line = "Water the plants every other friday #home"
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		performance.clearResourceTimings();
		const box = document.getElementById("quick-add-text"), line = %q;
		box.value = "";
		for (const ch of line) { box.value += ch; box.dispatchEvent(new Event("input", {bubbles: true})); }
		return true;
	})()`, line))); err != nil {
		b.t.Fatal(err)
	}
	b.until("the preview of the burst", `(document.querySelector('#quick-add-preview [data-field=title]') || {}).textContent === "Water the plants"`)
	sent, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`performance.getEntriesByType("resource").filter(e => e.name.includes("/v1/tasks/preview")).map(e => e.name)`))
	if err != nil {
		b.t.Fatal(err)
	}
	if len(sent) != 1 {
		b.t.Errorf("typing %d characters sent %d previews, want 1: %v", len(line), len(sent), sent)
	}
	b.empty()
}

// TestBrowserQuickAddRefused: a line the server refuses stays in the box
// with the refusal beside it, with the script (the preview says it while
// typing, and Enter says it again, nothing added) and without (the form
// post comes back with the line and the refusal).
func TestBrowserQuickAddRefused(t *testing.T) {
	t.Parallel()
	b := newQuickAddBrowser(t)
	const line = "tomorrow #errands !4"
	before := b.tasks()
	b.typeLine(line)
	b.until("the refusal while typing", `!document.getElementById("quick-add-error").hidden`)
	b.run("press Enter", chromedp.KeyEvent("\r"))
	b.until("the refusal after Enter", `document.getElementById("problem-code").textContent === "validation"`)
	msg := strings.TrimSpace(b.text(`#quick-add-error`))
	value, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.CSS(`#quick-add-text`)))
	url, _ := chromedp.Run(b.ctx, chromedp.Location())
	if value != line || !strings.Contains(msg, "title") || strings.Contains(url, "added=") {
		t.Errorf("with the script: box %q, refusal %q, at %s", value, msg, url)
	}
	invalid, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.getElementById("quick-add-text").getAttribute("aria-invalid")`))
	if invalid != "true" {
		t.Errorf("aria-invalid %q", invalid)
	}
	b.sh.page("quick-add-refused")

	// Without the script: a tab of the same browser (the same session).
	tab, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	scripts := func(off bool) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off})
			return err
		})
	}
	if err := chromedp.Do(tab, scripts(true), chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(chromedp.CSS(`#quick-add-text`)),
		chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), "Ship it +nowhere"), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#quick-add-error`))); err != nil {
		t.Fatalf("without the script: %v", err)
	}
	value, _ = chromedp.Run(tab, chromedp.Value(chromedp.CSS(`#quick-add-text`)))
	msg, _ = chromedp.Run(tab, chromedp.Text(chromedp.CSS(`#quick-add-error`)))
	preview, _ := chromedp.Run(tab, chromedp.Text(chromedp.CSS(`#quick-add-preview`)))
	if value != "Ship it +nowhere" || !strings.Contains(msg, "no such project") || strings.TrimSpace(preview) != "" {
		t.Errorf("without the script: box %q, refusal %q, preview %q", value, msg, preview)
	}
	if err := chromedp.Do(tab, scripts(false)); err != nil {
		t.Fatal(err)
	}
	(&shooter{t: t, ctx: tab, dir: b.sh.dir, axe: b.sh.axe}).page("quick-add-refused-no-script")
	if after := b.tasks(); after != before {
		t.Errorf("refused lines added %d tasks", after-before)
	}
}

// TestBrowserQuickAddLatency measures the preview as a person meets it, in
// Chromium against `tend serve`: from the last keystroke of a line to the
// preview drawn (which includes the box's 150 ms wait for typing to
// pause), and from the preview's request leaving to it drawn. It runs
// only with TEND_PREVIEW_LATENCY=1, on a copy of the database
// TEND_BENCH_SEED names (the seeded 100,000 tasks of the web benchmarks),
// else on a fresh one; BENCHMARKS.md has the command and figures.
func TestBrowserQuickAddLatency(t *testing.T) {
	if os.Getenv("TEND_PREVIEW_LATENCY") != "1" {
		t.Skip("set TEND_PREVIEW_LATENCY=1 (and TEND_BENCH_SEED) to measure")
	}
	ctx := browserCtx(t)
	db := tempDB(t)
	if seed := os.Getenv("TEND_BENCH_SEED"); seed != "" {
		if err := copyFile(seed, db); err != nil {
			t.Fatal(err)
		}
	}
	s := startChild(t, db, os.Getenv("TEND_BENCH_SEED") == "", "--timezone", "UTC")
	link := strings.TrimSpace(mustRun(t, "--db", db, "signin", "--addr", s.addr))
	b := &quickAddBrowser{&walk{t: t, ctx: ctx, base: s.url}}
	b.signIn(link)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.__qa = {input: 0, drawn: 0};
		document.getElementById("quick-add-text").addEventListener("input", () => { window.__qa.input = performance.now(); }, true);
		new MutationObserver(() => { window.__qa.drawn = performance.now(); })
			.observe(document.getElementById("quick-add-preview"), {childList: true, subtree: true});
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	lines := []string{"Call the bank tomorrow 9am !4 #finance every month", "Weekly review every friday at 16:00",
		"Dentist next tuesday at 3pm", "Pay rent every month on the 1st #home", "Buy milk", "Plan Q1 roadmap !4 ~4h next monday",
		"Standup every weekday at 9:30 ~15m", "Renew passport in 3 days", "Book club every 3rd friday", "Call mum tonight at 8"}
	var keyToDrawn, requestToDrawn, exchange []float64
	for round := range 3 {
		for _, line := range lines {
			line := fmt.Sprintf("%s %d", line, round)
			b.empty()
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`performance.clearResourceTimings(); window.__qa.drawn = 0; true`)); err != nil {
				t.Fatal(err)
			}
			b.run("type", chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), line))
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.__qa.drawn > window.__qa.input && performance.getEntriesByType("resource").some(e => e.name.includes("/v1/tasks/preview"))`,
				chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([window.__qa, document.getElementById("quick-add-text").value, document.getElementById("quick-add-preview").textContent, document.getElementById("quick-add-error").textContent, performance.getEntriesByType("resource").map(e => e.name)])`))
				t.Fatalf("the preview of %q: %v; %s", line, err, state)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
				const e = performance.getEntriesByType("resource").filter(e => e.name.includes("/v1/tasks/preview")).pop();
				return [window.__qa.drawn - window.__qa.input, window.__qa.drawn - e.startTime, e.responseEnd - e.startTime];
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			keyToDrawn, requestToDrawn, exchange = append(keyToDrawn, got[0]), append(requestToDrawn, got[1]), append(exchange, got[2])
		}
	}
	t.Logf("%d previews: last keystroke to preview drawn p50 %.1f ms p90 %.1f ms (with the 150 ms pause); request sent to preview drawn p50 %.1f ms p90 %.1f ms; the HTTP exchange alone p50 %.1f ms",
		len(keyToDrawn), pct(keyToDrawn, 0.5), pct(keyToDrawn, 0.9), pct(requestToDrawn, 0.5), pct(requestToDrawn, 0.9), pct(exchange, 0.5))
}

func pct(v []float64, p float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[int(float64(len(s)-1)*p)]
}
