package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests drive Debian's Chromium, headless, against the real
// `tend serve` on a fresh database. Without Chromium (or, for the
// accessibility pass, without axe-core) they skip, unless
// TEND_BROWSER_REQUIRED=1, which CI sets: there a missing browser fails.
//
//	TEND_CHROMIUM   the browser (default /usr/bin/chromium)
//	TEND_AXE_JS     axe-core's axe.min.js (npm install axe-core)
//	TEND_ARTIFACTS  where screenshots go (default artifacts/ in the repo)
//	TEND_README_SHOTS=1 also writes docs/screenshots/{today,board,project,document}.png

func browserRequired() bool { return os.Getenv("TEND_BROWSER_REQUIRED") == "1" }

func chromiumPath(t *testing.T) string {
	p := os.Getenv("TEND_CHROMIUM")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(p); err != nil {
		if browserRequired() {
			t.Fatalf("Chromium not found at %s and TEND_BROWSER_REQUIRED=1: %v", p, err)
		}
		t.Skipf("no Chromium at %s (apt-get install chromium, or set TEND_CHROMIUM)", p)
	}
	return p
}

func axeSource(t *testing.T) string {
	p := os.Getenv("TEND_AXE_JS")
	b, err := os.ReadFile(p)
	if p == "" || err != nil {
		if browserRequired() {
			t.Fatalf("axe-core not readable at TEND_AXE_JS=%q and TEND_BROWSER_REQUIRED=1: %v", p, err)
		}
		t.Logf("no axe-core (set TEND_AXE_JS to axe.min.js): the accessibility pass is skipped")
		return ""
	}
	return string(b)
}

// browserCtx gives the test a browser of its own, not yet signed in, for
// at most three minutes.
func browserCtx(t *testing.T) context.Context { return browserCtxFor(t, 3*time.Minute) }

// browserCtxFor is browserCtx for a test that may take up to limit. Each
// test gets a browser context of its own (cookies, storage, permissions and
// service workers apart, as a fresh profile has them) in the one headless
// Chromium the run shares: starting a browser for each test cost about a
// second of CPU, two dozen times over, in the everyday -short run.
func browserCtxFor(t *testing.T, limit time.Duration) context.Context {
	root, err := sharedBrowser(chromiumPath(t))
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	ctx, cancelC := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	ctx, cancelT := context.WithTimeout(ctx, limit)
	t.Cleanup(func() {
		cancelT()
		cancelC()
	})
	return ctx
}

// chromium is the run's Chromium, started by the first test that needs it
// and stopped by TestMain (stopBrowser).
var chromium struct {
	once    sync.Once
	root    context.Context
	err     error
	stop    func()
	profile string
}

// sharedBrowser starts the run's Chromium at path, once, and answers the
// context its tests' contexts derive from.
func sharedBrowser(path string) (context.Context, error) {
	chromium.once.Do(func() {
		if chromium.profile, chromium.err = os.MkdirTemp("", "tend-browser-"); chromium.err != nil {
			return
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(path, chromium.profile)...)
		root, cancelR := chromedp.NewContext(actx)
		chromium.root, chromium.stop = root, func() { cancelR(); cancelA() }
		chromium.err = chromedp.Do(root)
	})
	return chromium.root, chromium.err
}

// chromiumOptions are the flags this machine's closed network needs (no
// background fetches, no QUIC), for Chromium at path with profile.
func chromiumOptions(path, profile string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun, chromedp.UserDataDir(profile))
}

// ownBrowserCtx is browserCtx in a Chromium of the test's own, for what a
// browser context of the shared one cannot show: Chromium counts such a
// context as incognito, and offers to install no app from it.
func ownBrowserCtx(t *testing.T) context.Context {
	profile, err := os.MkdirTemp("", "tend-browser-")
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(chromiumPath(t), profile)...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		removeProfile(profile)
	})
	return ctx
}

// stopBrowser stops the run's Chromium, if a test started it, and removes
// its profile.
func stopBrowser() {
	if chromium.stop != nil {
		chromium.stop()
	}
	if chromium.profile != "" {
		removeProfile(chromium.profile)
	}
}

// pageText reads the text of sel. A live update can replace the element
// between the query that finds it and the read (Chromium then answers "No
// node with given id found"), so a read that lost its node queries again.
func pageText(ctx context.Context, sel string) (string, error) {
	var err error
	for range 5 {
		var v string
		if v, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel))); err == nil || !strings.Contains(err.Error(), "No node with given id") {
			return v, err
		}
	}
	return "", err
}

// removeProfile removes the browser's profile directory. Chromium's helper
// processes can still be writing into it just after the browser exits, so
// the removal is tried again for a while; a profile that will not go is a
// leftover in the temporary directory, not a fault of a page under test.
func removeProfile(dir string) {
	for range 50 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Fprintf(os.Stderr, "browser profile %s left behind\n", dir)
}

// browserServer starts `tend serve` on a new database for a browser test,
// with flags beyond its own, and returns its base URL and the sign-in link
// and administrator token it printed on its first start.
func browserServer(t *testing.T, flags ...string) (base, link, token string) {
	t.Helper()
	s := startChild(t, tempDB(t), true, append([]string{"--timezone", "UTC"}, flags...)...)
	if s.link == "" || s.token == "" {
		t.Fatal("no sign-in link or token printed")
	}
	return s.url, s.link, s.token
}

// screenshotDir is where browser tests put their screenshots:
// $TEND_ARTIFACTS/screenshots, or artifacts/screenshots beside the tests.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TEND_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	dir = filepath.Join(dir, "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shooter takes each page's screenshots, checks that the page keeps to
// the window's width, and runs the accessibility pass.
type shooter struct {
	t      *testing.T
	ctx    context.Context
	dir    string
	axe    string
	readme bool
	widths []int64 // the widths photographed; nil is 1280 and 390
	// noScript: the page runs without JavaScript; the checks' own scripts
	// are let through while they run.
	noScript bool
}

// readmeShots are the pages docs/screenshots holds for the README, by the
// name a flow photographs them under (1280 px, light).
var readmeShots = map[string]string{"today": "today", "board": "board", "project": "project", "document-preview-noscript": "document"}

func (s *shooter) page(name string) {
	s.t.Helper()
	widths := s.widths
	if widths == nil {
		widths = []int64{1280, 390}
	}
	for i, w := range widths {
		for _, scheme := range []string{"light", "dark"} {
			// The layout checks do not depend on the scheme; the dark pass
			// is for the photographs and axe's contrast rules.
			axe := s.axe != "" && s.axeAt(i, len(widths), scheme)
			if scheme == "dark" && !s.photographs() && !axe {
				continue
			}
			if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(w, 900), colourScheme(scheme)); err != nil {
				s.t.Fatalf("viewing %s at %d px, %s: %v", name, w, scheme, err)
			}
			if s.photographs() {
				s.photograph(name, w, scheme)
			}
			if scheme == "light" {
				s.scripted(func() { s.fits(fmt.Sprintf("%s at %d px", name, w), w); s.dates(fmt.Sprintf("%s at %d px", name, w)) })
			}
			if axe {
				s.scripted(func() { s.accessible(fmt.Sprintf("%s at %d px, %s", name, w, scheme)) })
			}
		}
	}
	_ = chromedp.Do(s.ctx, chromedp.EmulateViewport(widths[0], 900), colourScheme("light"))
}

// axeAt says whether axe runs on the page at the i-th of n widths in
// scheme. The full run checks every width in both schemes; the everyday
// -short run, where axe is the larger part of a browser test's CPU, checks
// each scheme once and each width once: light at the first width, dark at
// the last (the layout checks still run at every width).
func (s *shooter) axeAt(i, n int, scheme string) bool {
	if !testing.Short() || n == 1 {
		return true
	}
	if scheme == "light" {
		return i == 0
	}
	return i == n-1
}

// photographs says whether the pages are photographed: always in a full
// run (CI keeps them as artifacts) or when asked for; the everyday -short
// run makes the same checks at every width and scheme without encoding
// the PNGs, the larger part of a browser test's CPU.
func (s *shooter) photographs() bool {
	return !testing.Short() || s.readme || os.Getenv("TEND_ARTIFACTS") != ""
}

// photograph writes the page's screenshot at width w in scheme, and the
// README's copy when it is one of readmeShots.
func (s *shooter) photograph(name string, w int64, scheme string) {
	s.t.Helper()
	png, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		s.t.Fatalf("screenshot of %s: %v", name, err)
	}
	file := filepath.Join(s.dir, fmt.Sprintf("%s-%d-%s.png", name, w, scheme))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
	if shot, ok := readmeShots[name]; ok && s.readme && w == 1280 && scheme == "light" {
		if err := os.WriteFile(filepath.Join("docs", "screenshots", shot+".png"), png, 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
}

// fits fails when the page scrolls sideways: it is wider than the window.
func (s *shooter) fits(what string, width int64) {
	s.t.Helper()
	wide, err := chromedp.Run(s.ctx, chromedp.Evaluate[[]int64](`[document.documentElement.scrollWidth, window.innerWidth]`))
	if err != nil {
		s.t.Fatalf("measuring %s: %v", what, err)
	}
	if wide[0] > wide[1] {
		over, _ := chromedp.Run(s.ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("main *")).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join(", ")`))
		s.t.Errorf("%s scrolls sideways: %d px wide in a %d px window (%s)", what, wide[0], wide[1], over)
	}
}

// dates fails when a date or a time of day breaks across lines: each is
// kept whole (the nw class), so a due with its time takes two lines at most.
func (s *shooter) dates(what string) {
	s.t.Helper()
	broken, err := chromedp.Run(s.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".nw")).filter(e => e.getClientRects().length > 1).map(e => e.textContent)`))
	if err != nil {
		s.t.Fatalf("measuring the dates of %s: %v", what, err)
	}
	if len(broken) > 0 {
		s.t.Errorf("%s breaks %q across lines", what, broken)
	}
}

// scripted runs a check that evaluates script in the page, letting scripts
// run for it on a page that has them switched off.
func (s *shooter) scripted(check func()) {
	s.t.Helper()
	if s.noScript {
		s.t.Helper()
		if err := chromedp.Do(s.ctx, scriptsOff(false)); err != nil {
			s.t.Fatal(err)
		}
		defer func() {
			if err := chromedp.Do(s.ctx, scriptsOff(true)); err != nil {
				s.t.Fatal(err)
			}
		}()
	}
	check()
}

// scriptsOff switches the page's JavaScript off (or on again), as a
// browser with JavaScript disabled runs it.
func scriptsOff(off bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off})
		return err
	})
}

// colourScheme makes the page's prefers-color-scheme light or dark.
func colourScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// accessible runs axe-core's WCAG 2 A and AA rules (labels, heading order,
// colour contrast among them) in the page and fails on any violation.
func (s *shooter) accessible(what string) {
	s.t.Helper()
	found, err := chromedp.Run(s.ctx, chromedp.Evaluate[bool](`typeof axe !== "undefined"`))
	if err != nil {
		s.t.Fatal(err)
	}
	if !found {
		if _, err := chromedp.Run(s.ctx, chromedp.Evaluate[chromedp.Void](s.axe)); err != nil {
			s.t.Fatalf("loading axe-core: %v", err)
		}
	}
	script := `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, resultTypes: ["violations"]})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(" "))}))))`
	out, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("axe on %s: %v", what, err)
	}
	var v []map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		s.t.Fatalf("axe's answer on %s: %v %s", what, err, out)
	}
	if len(v) > 0 {
		s.t.Errorf("accessibility violations on %s: %s", what, out)
	}
}

// TestBrowserFlow is the walk through the app in a real browser:
// sign in through the link `tend serve` prints on first start, add a task
// by a captured line, find it in Tasks and on the Board, move it to done,
// open it, comment, see the comment, sign out and be refused. Every page is
// photographed at 1280 and 390 px, light and dark, checked to keep to the
// window's width, and checked with axe.
func TestBrowserFlow(t *testing.T) {
	t.Parallel()
	w, link := newBrowser(t, false)
	ctx, base, sh, run, text := w.ctx, w.base, w.sh, w.run, w.text
	run("open the sign-in link", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`form[action="/signin"] button`)))
	sh.page("signin")
	run("sign in", chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))

	run("add by a captured line",
		chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), "Renew the passport tomorrow #errands !4 ~30m"),
		chromedp.Submit(chromedp.CSS(`#quick-add-text`)),
		chromedp.WaitVisible(chromedp.CSS(`#added`)))
	ref := strings.TrimPrefix(text(`#added a`), "#")
	understood := text(`#added`)
	for _, want := range []string{"Renew the passport", "#errands", "30 min"} {
		if !strings.Contains(understood, want) {
			t.Fatalf("the quick add understood %q; want %q in it", understood, want)
		}
	}
	for _, add := range []struct{ line, title string }{{"Water the plants every monday #home", "Water the plants"},
		{"Call the plumber friday 9am #home !3", "Call the plumber"}, {"Draft the Q1 plan next week !4/3 ~2h", "Draft the Q1 plan"}} {
		// Wait for this line's own answer: the box of the one before is on the page until then.
		run("add "+add.line, chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), add.line), chromedp.Submit(chromedp.CSS(`#quick-add-text`)),
			chromedp.WaitVisible(chromedp.Search(`//div[@id="added"]//strong[text()="`+add.title+`"]`)))
	}
	sh.page("today")

	row := fmt.Sprintf(`#task-list tr[data-ref="%s"]`, ref)
	run("find it in Tasks", chromedp.Navigate(base+"/tasks"), chromedp.WaitVisible(chromedp.CSS(row)))
	sh.page("tasks")
	run("open it with j and Enter", chromedp.KeyEvent("j"), chromedp.WaitVisible(chromedp.CSS(`tr.selected`)), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS(`#comment-add`)))
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(url, "/tasks/"+ref) {
		t.Fatalf("j and Enter opened %s", url)
	}
	run("/ goes to search", chromedp.KeyEvent("/"), chromedp.WaitVisible(chromedp.CSS(`#s-q`)))
	sh.page("search")

	card := fmt.Sprintf(`article.card[data-ref="%s"]`, ref)
	run("find it on the Board", chromedp.Navigate(base+"/board"), chromedp.WaitVisible(chromedp.CSS(`section.column[data-category="todo"] `+card)))
	sh.page("board")
	// With the script a card moves by key or drag; its form is the way
	// without it (TestBrowserLists), hidden here.
	run("move it to done with the keys",
		chromedp.Focus(chromedp.CSS(card)), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`section.column[data-category="in_progress"] `+card)),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`section.column[data-category="done"] `+card)))

	run("open it", chromedp.Navigate(base+"/tasks/"+ref), chromedp.WaitVisible(chromedp.CSS(`#comment-add`)))
	run("comment",
		chromedp.SendKeys(chromedp.CSS(`#comment-body`), "Booked for Thursday"),
		chromedp.Submit(chromedp.CSS(`#comment-body`)),
		chromedp.WaitVisible(chromedp.CSS(`#comments .comment`)))
	comments, status := text(`#comments`), text(`dl.fields`)
	if !strings.Contains(comments, "Booked for Thursday") || !strings.Contains(status, "Done") {
		t.Fatalf("task page: comments %q, fields %q", comments, status)
	}
	sh.page("task")

	run("c adds from anywhere", chromedp.Navigate(base+"/projects"), chromedp.WaitVisible(chromedp.CSS(`#project-list`)))
	sh.page("projects")
	// Focus is read from document.activeElement: a headless window without
	// system focus never matches :focus (Chromium 148), though the box has
	// the focus and takes what is typed.
	run("press c", chromedp.KeyEvent("c"), chromedp.WaitVisible(chromedp.CSS(`#quick-add-text`)))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.activeElement && document.activeElement.id === "quick-add-text"`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("press c: the add box is not focused: %v", err)
	}

	run("the account", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(chromedp.CSS(`#signout`)))
	sh.page("account")
	run("sign out", chromedp.Click(chromedp.CSS(`#signout button`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	sh.page("signed-out")
	run("and be refused", chromedp.Navigate(base+"/tasks"), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
}
