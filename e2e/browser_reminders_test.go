package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserReminders walks the task page's list of reminders, with and
// without JavaScript: one added from the select, one typed in the line's
// words and sent with Enter, the first removed with its button; after a
// reload the list says what the API's reminders hold. The page is checked
// with axe.
func TestBrowserReminders(t *testing.T) { walkTwice(t, browserReminders) }

func browserReminders(w *walk) {
	t := w.t
	status, task := apiJSON(t, w.base, w.token, http.MethodPost, "/v1/tasks",
		map[string]any{"title": "Dentist", "due_at": "2030-05-06T08:00:00Z"})
	if status != http.StatusCreated {
		t.Fatalf("create: %d", status)
	}
	ref := fmt.Sprint(task["ref"])
	w.open("/tasks/"+ref, `#reminder-add`)
	w.has(`#reminders`, "No reminders.")

	w.send("add one from the select", chromedp.SetValue(chromedp.CSS(`#remind-add`), "1h"),
		chromedp.Click(chromedp.CSS(`#reminder-add button`)))
	w.run("see it", chromedp.WaitVisible(chromedp.CSS(`#reminder-list li`)))
	w.send("type one and press Enter", chromedp.SendKeys(chromedp.CSS(`#remind-custom`), "at 7:30"),
		chromedp.KeyEvent(kb.Enter))
	w.run("see both", chromedp.WaitVisible(chromedp.CSS(`#reminder-list li:nth-child(2)`)))
	w.has(`#reminder-list`, "1 h before — fires", "at ")
	w.shot("task-reminders")

	w.send("remove the first", chromedp.Click(chromedp.CSS(`#reminder-list li:first-child button`)))
	w.open("/tasks/"+ref, `#reminder-add`)
	n, item := w.eval(`document.querySelectorAll("#reminder-list li").length + ""`), w.text(`#reminder-list .reminder-words`)
	_, got := apiJSON(t, w.base, w.token, http.MethodGet, "/v1/tasks/"+ref, nil)
	rs, _ := got["reminders"].([]any)
	if len(rs) != 1 || n != "1" {
		t.Fatalf("the page lists %s (%q), the API holds %v", n, item, rs)
	}
	if r := rs[0].(map[string]any); r["at"] != "2030-05-06T07:30:00Z" || !strings.Contains(item, "at Mon 6 May 2030 07:30 UTC — fires") {
		t.Fatalf("the page lists %q, the API holds %v", item, rs)
	}
	w.hasNot(`#reminder-list`, "1 h before")
}
