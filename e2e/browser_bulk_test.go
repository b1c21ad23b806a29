package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBulk is issue 34 §3 on the Tasks list, at 1280 and 390 px:
// a click on one row's box and Shift and a click on another's tick the
// three rows from one to the other, the bar tags them with one change,
// and x ticks the selected row for the bar's delete; the three deleted at
// once come back with the toast's one Undo. Each state is photographed and
// checked with axe.
func TestBrowserBulk(t *testing.T) {
	t.Parallel()
	b := newSignedInLists(t, 5*time.Minute)
	b.watchCSP()
	for _, w := range []int64{1280, 390} {
		b.width(w)
		b.bulk(w)
		b.noCSPViolation("many at once")
	}
}

// bulk selects three of four rows with a click and a Shift-click, tags
// them, then deletes the fourth, ticked with x, then the three, and undoes
// that.
func (b *lists) bulk(w int64) {
	project := fmt.Sprintf("bulk%d", w)
	b.api(b.admin, http.MethodPost, "/v1/projects", map[string]any{"key": project, "title": fmt.Sprintf("Bulk %d", w)})
	var refs []string
	for _, title := range []string{"Buy stamps", "Post the parcel", "Return the books", "Renew the library card"} {
		refs = append(refs, fmt.Sprint(b.api(b.admin, http.MethodPost, "/v1/tasks", map[string]any{"title": title, "project": project})["ref"]))
	}
	list := "/tasks?order=ref&project=" + project
	b.do("Tasks", chromedp.Navigate(b.base+list), chromedp.WaitVisible(chromedp.CSS(row(refs[0])+" input.pick")))
	b.click("the first row's box", row(refs[0])+" input.pick")
	b.do("Shift and the third row's box", chromedp.QueryAfter(chromedp.CSS(row(refs[2])+" input.pick"),
		func(ctx context.Context, t *chromedp.Target, nodes []*chromedp.Node) (chromedp.Void, error) {
			return chromedp.MouseClickNode(nodes[0], chromedp.ButtonModifiers(chromedp.ModifierShift))(ctx, t)
		}))
	b.until("three rows are ticked", `document.querySelectorAll(".picking input.pick:checked").length === 3 && `+
		`!document.querySelector("`+row(refs[3])+` input.pick").checked && document.getElementById("bulk-count").textContent === "(3)"`)
	b.sh.page("tasks-bulk-selected")
	b.do("the tag", chromedp.SetValue(chromedp.CSS(`#bulk-action`), "tag"), chromedp.SendKeys(chromedp.CSS(`#bulk-value`), "errands"))
	b.click("Apply", `#bulk button[type=submit]`)
	b.until("the list says so", `location.search.indexOf("notice=bulk") >= 0 && document.body.textContent.indexOf("Changed the selected tasks.") >= 0`)
	for i, ref := range refs {
		tags, _ := b.task(ref)["tags"].([]any)
		if tagged := slices.Contains(tags, any("errands")); tagged != (i < 3) {
			b.t.Fatalf("%d px: #%s tags %v", w, ref, tags)
		}
	}
	if w == 1280 {
		b.until("the rows show the tag", `document.querySelector("`+row(refs[2])+`").textContent.indexOf("#errands") >= 0`)
	}
	b.do("select the fourth row", chromedp.Navigate(b.base+list), chromedp.WaitVisible(chromedp.CSS(row(refs[3]))))
	b.click("the fourth row's title cell", row(refs[3])+" td:nth-child(4)")
	b.key("x")
	b.until("x ticks it", `document.querySelector("`+row(refs[3])+` input.pick").checked && document.querySelectorAll(".picking input.pick:checked").length === 1`)
	b.do("delete", chromedp.SetValue(chromedp.CSS(`#bulk-action`), "delete"))
	b.click("Apply", `#bulk button[type=submit]`)
	b.until("the list says where it went", `document.getElementById("toast").textContent.indexOf("Moved #`+refs[3]+` to the trash") >= 0 && !document.querySelector("`+row(refs[3])+`")`)
	if status, _ := apiJSON(b.t, b.base, b.admin, http.MethodGet, "/v1/tasks/"+refs[3], nil); status != http.StatusNotFound {
		b.t.Fatalf("%d px: the deleted task answers %d", w, status)
	}

	// The three tagged rows deleted at once, and one Undo brings them back.
	b.click("the first row's box", row(refs[0])+" input.pick")
	b.do("Shift and the third row's box", chromedp.QueryAfter(chromedp.CSS(row(refs[2])+" input.pick"),
		func(ctx context.Context, t *chromedp.Target, nodes []*chromedp.Node) (chromedp.Void, error) {
			return chromedp.MouseClickNode(nodes[0], chromedp.ButtonModifiers(chromedp.ModifierShift))(ctx, t)
		}))
	b.until("three rows are ticked", `document.querySelectorAll(".picking input.pick:checked").length === 3`)
	b.do("delete", chromedp.SetValue(chromedp.CSS(`#bulk-action`), "delete"))
	b.click("Apply", `#bulk button[type=submit]`)
	b.until("the toast offers Undo for the three", `document.getElementById("toast").textContent.indexOf("Moved 3 tasks to the trash") >= 0 && `+
		`!document.querySelector("`+row(refs[0])+`") && !document.querySelector("`+row(refs[2])+`")`)
	for _, ref := range refs[:3] {
		if status, _ := apiJSON(b.t, b.base, b.admin, http.MethodGet, "/v1/tasks/"+ref, nil); status != http.StatusNotFound {
			b.t.Fatalf("%d px: deleted #%s answers %d", w, ref, status)
		}
	}
	b.sh.page("tasks-bulk-deleted")
	b.click("Undo", `#toast form[action="/bulk"] button`)
	b.until("the three are back", `document.body.textContent.indexOf("Restored the tasks from the trash") >= 0 && `+
		`!!document.querySelector("`+row(refs[0])+`") && !!document.querySelector("`+row(refs[1])+`") && !!document.querySelector("`+row(refs[2])+`")`)
	for _, ref := range refs[:3] {
		if b.task(ref)["deleted_at"] != nil {
			b.t.Fatalf("%d px: #%s is still in the trash", w, ref)
		}
	}
	b.sh.page("tasks-bulk-restored")
}
