package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserViews saves the Tasks page's filters as a shared view, finds
// it in the top bar with its count on every page, opens it (the listing
// with its filters and its name), and sees a view saved through the API
// arrive in the bar. Every page is photographed at 1280 and 390 px, light
// and dark, checked to keep to the window's width and with axe.
func TestBrowserViews(t *testing.T) {
	t.Parallel()
	w := newWalk(t, false)
	run, has, hasNot, shot, send := w.run, w.has, w.hasNot, w.shot, w.send
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Renew the passport", "tags": []string{"errands"}}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Buy stamps", "tags": []string{"errands"}}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Write the report"}, http.StatusCreated)

	w.open("/tasks?tag=errands&order=-ref", `#save-view`)
	has(`main table`, "Renew the passport", "Buy stamps")
	hasNot(`main table`, "Write the report")
	run("name the view", chromedp.SendKeys(chromedp.CSS(`#v-name`), "Errands"), chromedp.Click(chromedp.CSS(`#v-shared`)))
	shot("views-save")
	send("save the view", chromedp.Click(chromedp.CSS(`#save-view button`)), chromedp.WaitVisible(chromedp.CSS(`#view-note`)))
	has(`main h1`, "Errands")
	has(`#view-note`, "shared with the workspace by admin")
	has(`#views`, "Errands", "2")
	has(`main table`, "Buy stamps", "Renew the passport")
	hasNot(`main table`, "Write the report")
	if got := w.text(`#task-list tbody tr:first-child`); !strings.Contains(got, "Buy stamps") {
		t.Errorf("the view's order (-ref) puts Buy stamps first; the first row is %q", got)
	}
	has(`#views a[aria-current="page"]`, "Errands")
	shot("views-open")

	w.api(http.MethodPost, "/v1/views", map[string]any{"name": "Everything open", "query": "order=ref"}, http.StatusCreated)
	w.open("/", `#views`)
	has(`#views`, "Errands", "Everything open", "3")
	shot("views-today")
	send("open a view from the bar", chromedp.Click(chromedp.CSS(`#views a:first-child`)), chromedp.WaitVisible(chromedp.CSS(`#view-note`)))
	has(`main h1`, "Errands")
}
