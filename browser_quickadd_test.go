package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// quickAddBrowser is a signed-in browser on a fresh `tend serve`, with
// what the quick-add tests need.
type quickAddBrowser struct {
	t      *testing.T
	ctx    context.Context
	base   string
	secret string // the administrator's API token
	sh     *shooter
}

var firstTokenRE = regexp.MustCompile(`curl -H "Authorization: Bearer (\S+)"`)

func newQuickAddBrowser(t *testing.T) *quickAddBrowser {
	ctx := browserCtx(t)
	s := startServe(t, tempDB(t))
	link := signinLinkRE.FindString(s.out.String())
	m := firstTokenRE.FindStringSubmatch(s.out.String())
	if link == "" || m == nil {
		t.Fatalf("no sign-in link or token printed:\n%s", s.out.String())
	}
	b := &quickAddBrowser{t: t, ctx: ctx, base: "http://" + s.addr, secret: m[1], sh: newShooter(t, ctx)}
	b.run("sign in", chromedp.Navigate(link), chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	return b
}

func newShooter(t *testing.T, ctx context.Context) *shooter {
	dir := os.Getenv("TEND_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	dir = filepath.Join(dir, "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &shooter{t: t, ctx: ctx, dir: dir, axe: axeSource(t)}
}

func (b *quickAddBrowser) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *quickAddBrowser) text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("reading %s: %v", sel, err)
	}
	return strings.TrimSpace(v)
}

// until waits for a JavaScript condition on the page.
func (b *quickAddBrowser) until(what, cond string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond),
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// typeLine empties the box and types line into it, key by key.
func (b *quickAddBrowser) typeLine(line string) {
	b.t.Helper()
	b.run("type "+line, chromedp.Clear(chromedp.CSS(`#quick-add-text`)), chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), line))
}

// tasks counts the open tasks through the API.
func (b *quickAddBrowser) tasks() int {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.base+"/v1/tasks?include_total=true", nil)
	req.Header.Set("Authorization", "Bearer "+b.secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct {
		Page struct{ Total int } `json:"page"`
	}
	body, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(body, &list); err != nil {
		b.t.Fatalf("%v: %s", err, body)
	}
	return list.Page.Total
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
	b := newQuickAddBrowser(t)
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
		added := b.text(`#added`)
		if !strings.Contains(added, strings.TrimSuffix(due, " (all day)")) || !strings.Contains(added, c.repeat) {
			t.Errorf("%q: the preview said due %q, repeat %q; Today says it added:\n%s", c.line, due, repeat, added)
		}
		if got, _ := chromedp.Run(b.ctx, chromedp.Value(chromedp.CSS(`#quick-add-text`))); got != "" {
			t.Errorf("after adding, the box holds %q", got)
		}
	}
}

// TestBrowserQuickAddRefused: a line the server refuses stays in the box
// with the refusal beside it, with the script (the preview says it while
// typing, and Enter says it again, nothing added) and without (the form
// post comes back with the line and the refusal).
func TestBrowserQuickAddRefused(t *testing.T) {
	b := newQuickAddBrowser(t)
	const line = "tomorrow #errands !4"
	before := b.tasks()
	b.typeLine(line)
	b.until("the refusal while typing", `!document.getElementById("quick-add-error").hidden`)
	b.run("press Enter", chromedp.KeyEvent("\r"))
	b.until("the refusal after Enter", `document.getElementById("problem-code").textContent === "validation"`)
	msg := b.text(`#quick-add-error`)
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
