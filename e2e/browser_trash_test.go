package e2e

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserTrash walks the trash with JavaScript: a task with a subtask
// deleted from its row's menu (confirmed, naming the count), the row put
// back by the toast's Undo; deleted again from its page; the Trash page
// with Restore and Delete forever; a finished task's Reopen; and a board
// card's move undone from its toast. Its NoScript subtest walks the
// same as form posts. Every page is photographed at 1280 and 390 px, light
// and dark, checked to keep to the window's width and with axe.
func TestBrowserTrash(t *testing.T) { walkTwice(t, browserTrash) }

func browserTrash(w *walk) {
	t, noScript := w.t, w.noScript
	run, has, hasNot, shot, until, send := w.run, w.has, w.hasNot, w.shot, w.until, w.send
	// A fresh server: the refs are 1, 2 and 3.
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Paint the shed"}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Buy paint", "parent": 1}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Sweep the yard"}, http.StatusCreated)

	w.open("/tasks", `#t-1`)
	run("open the row's menu", chromedp.Click(chromedp.CSS(`#t-1 .rowmenu > summary`)), chromedp.WaitVisible(chromedp.CSS(`#t-1 form.delete button`)))
	has(`#t-1 form.delete`, "Delete with its 1 subtask")
	shot("trash-rowmenu")
	if noScript {
		send("delete from the row", chromedp.Click(chromedp.CSS(`#t-1 form.delete button`)), chromedp.WaitVisible(chromedp.CSS(`#toast form`)))
	} else {
		if _, err := chromedp.Run(w.ctx, chromedp.Evaluate[bool](`window.confirm = function (q) { window.asked = q; return true; }; true`)); err != nil {
			t.Fatalf("agree to the confirmation: %v", err)
		}
		run("delete from the row", chromedp.Click(chromedp.CSS(`#t-1 form.delete button`)))
		until("the row leaves the list", `!document.querySelector("#t-1") && document.getElementById("toast").textContent.includes("Moved")`)
		until("the count was asked first", `window.asked === "Delete this task and its 1 subtask?"`)
	}
	has(`#toast`, "Moved", "trash", "with its 1 subtask", "Undo")
	hasNot(`main table`, "Paint the shed")
	shot("trash-deleted")
	if noScript {
		send("undo", chromedp.Click(chromedp.CSS(`#toast form button`)), chromedp.WaitVisible(chromedp.CSS(`#t-1`)))
	} else {
		run("undo", chromedp.Click(chromedp.CSS(`#toast .toast-box button.plain:not(.toast-close)`)))
		until("the row is back", `!!document.querySelector("#t-1") && document.getElementById("toast").textContent.includes("Restored")`)
	}
	has(`main table`, "Paint the shed", "Buy paint")

	w.open("/tasks/1", `#delete`)
	run("open Delete", chromedp.Click(chromedp.CSS(`#delete > summary`)), chromedp.WaitVisible(chromedp.CSS(`#delete-form button`)))
	has(`#delete-form`, "Delete this task and its 1 subtask?")
	shot("trash-task-delete")
	send("delete from the task's page", chromedp.Click(chromedp.CSS(`#delete-form button`)), chromedp.WaitVisible(chromedp.CSS(`#toast form`)))
	has(`#toast`, "Moved #1 to the", "trash", "with its 1 subtask.", "Undo")

	w.open("/trash", `#trash-list`)
	has(`#trash-list`, "Paint the shed", "Buy paint", "Restore", "Delete forever")
	shot("trash")
	run("open Delete forever", chromedp.Click(chromedp.CSS(`#trash-1 details.confirm > summary`)),
		chromedp.WaitVisible(chromedp.CSS(`#trash-1 form[action="/trash/1/purge"] button`)))
	send("delete forever", chromedp.Click(chromedp.CSS(`#trash-1 form[action="/trash/1/purge"] button`)), chromedp.WaitVisible(chromedp.CSS(`#purged`)))
	has(`#purged`, "Deleted #1 forever, with 1 more under it.")
	has(`main`, "The trash is empty.")
	w.api(http.MethodGet, "/v1/tasks/1", nil, http.StatusNotFound)

	w.api(http.MethodPost, "/v1/tasks/3/complete", nil, http.StatusOK)
	w.open("/tasks/3", `#reopen-form`)
	send("reopen", chromedp.Click(chromedp.CSS(`#reopen-form button`)), chromedp.WaitVisible(chromedp.CSS(`#status`)))
	has(`#status`, "To do")

	if noScript {
		return
	}
	w.open("/board", `#t-3`)
	run("move the card", chromedp.Focus(chromedp.CSS(`#t-3`)), chromedp.KeyEvent(kb.ArrowRight))
	until("the card moved, with Undo", `document.querySelector("#t-3").getAttribute("data-status") === "in_progress" && document.getElementById("toast").textContent.includes("Undo")`)
	shot("trash-board-undo")
	run("undo the move", chromedp.Click(chromedp.CSS(`#toast .toast-box button.plain:not(.toast-close)`)))
	until("the card is back", `document.querySelector("#t-3").getAttribute("data-status") === "todo"`)
}
