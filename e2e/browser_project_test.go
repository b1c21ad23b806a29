package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserProject walks a project's life in a browser with JavaScript:
// start two projects, rename one and make it private, move it under the
// other, share it with a member and give them a role of its own, take both
// back, trash it and restore it, archive it and reopen it, start a
// subproject; then a repeating task in it: move this one only, change the
// rest from now on, add a subtask, claim and release it, skip it and land
// on the next, complete that and land on the one after, and Undo; and a
// document taken out of force by its status. Each step is
// read back from the page, the history in words among it.
// Its NoScript subtest walks the same without JavaScript. Every page
// is photographed at 1280 and 390 px, light and dark, checked to keep to
// the window's width and with axe.
func TestBrowserProject(t *testing.T) { walkTwice(t, browserProject) }

func browserProject(w *walk) {
	w.api(http.MethodPost, "/v1/users", map[string]string{"username": "bob"}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/workspaces/default/members", map[string]string{"username": "bob", "role": "member"}, http.StatusCreated)

	for _, p := range [][2]string{{"Home", "home"}, {"Garden", "garden"}} {
		w.open("/projects", `#project-new`)
		w.send("start "+p[0], chromedp.SendKeys(css(`#pn-title`), p[0]), chromedp.SendKeys(css(`#pn-key`), p[1]),
			chromedp.Click(css(`#project-new button`)))
		w.has(`h1`, p[0])
	}

	w.run("open the edit form", chromedp.Click(css(`#edit > summary`)))
	w.send("rename it and make it private", chromedp.Clear(css(`#pe-title`)),
		chromedp.SendKeys(css(`#pe-title`), "Vegetable garden"), chromedp.SetValue(css(`#pe-vis`), "private"),
		chromedp.Click(css(`#project-edit button[type=submit]`)))
	w.has(`#notice`, "Saved.")
	w.has(`h1`, "Vegetable garden")
	w.has(`#project-visibility`, "only the people it is shared with")

	w.run("open the move form", chromedp.Click(css(`#move > summary`)))
	w.send("move it under Home", chromedp.SetValue(css(`#pm-parent`), "home"), chromedp.Click(css(`#project-move button`)))
	w.has(`.crumbs`, "Projects / Home")

	w.send("share it with bob", chromedp.SendKeys(css(`#ps-user`), "bob"), chromedp.Click(css(`#project-share button`)))
	w.send("give bob a role of its own", chromedp.SendKeys(css(`#pr-user`), "bob"), chromedp.SetValue(css(`#pr-role`), "viewer"),
		chromedp.Click(css(`#project-role button`)))
	w.has(`#members ul`, "bob")
	w.has(`#history`, "admin gave bob the viewer role in this project", "admin shared this project with bob",
		"renamed this to “Vegetable garden”", "made this private", "admin moved this under home")
	w.shot("project-shared")
	w.send("take bob's role away", chromedp.SendKeys(css(`#pr-user`), "bob"), chromedp.SetValue(css(`#pr-role`), ""),
		chromedp.Click(css(`#project-role button`)))
	w.send("stop sharing it with bob", chromedp.Click(css(`#members form[action$="/members/bob/remove"] button`)))
	w.hasNot(`#members ul`, "bob")
	w.has(`#history`, "admin stopped sharing this project with bob", "admin took away the role bob had in this project")

	w.run("open the trash form", chromedp.Click(css(`#trash > summary`)))
	w.send("move it to the trash", chromedp.Click(css(`#project-trash button`)))
	w.has(`#notice`, "Moved to the trash")
	w.has(`#trash`, "home/garden")
	w.hasNot(`#project-list`, "Vegetable garden")
	w.shot("projects-trash")
	w.send("restore it", chromedp.Click(css(`#trash form[action="/projects/garden/restore"] button`)))
	w.has(`h1`, "Vegetable garden")
	w.has(`#history`, "admin restored this from the trash")

	w.send("archive it", chromedp.Click(css(`#project-archive button`)))
	w.has(`#project-reopen`, "Vegetable garden is archived (Completed)")
	w.open("/projects", `#archived`)
	w.has(`#archived`, "Vegetable garden", "home/garden · Completed")
	w.hasNot(`#project-list`, "Vegetable garden")
	w.shot("projects-archived")
	w.send("open it from the archive", chromedp.Click(css(`#archived a[href="/projects/garden"]`)))
	w.send("reopen it", chromedp.Click(css(`#project-reopen button`)))
	w.has(`#project-status`, "Active")
	w.has(`#history`, "admin moved this to Completed", "admin moved this to Active")

	w.open("/projects/home", `#new-subproject`)
	w.run("open the subproject form", chromedp.Click(css(`#new-subproject > summary`)))
	w.send("start a subproject", chromedp.SendKeys(css(`#sp-title`), "Shed"), chromedp.SendKeys(css(`#sp-key`), "shed"),
		chromedp.Click(css(`#subproject-new button`)))
	w.has(`.crumbs`, "Projects / Home")
	w.open("/projects/home", `#subprojects`)
	w.has(`#subprojects`, "Vegetable garden", "Shed")

	browserRepeatingTask(w)

	w.open("/projects/garden", `#new-document`)
	w.run("open the document form", chromedp.Click(css(`#new-document > summary`)))
	w.send("write a finding", chromedp.SendKeys(css(`#dn-title`), "Slugs like lettuce"),
		chromedp.SetValue(css(`#dn-type`), "finding"), chromedp.SendKeys(css(`#dn-body`), "They ate it all."),
		chromedp.Click(css(`#document-new button[type=submit]`)))
	w.has(`#doc-status`, "Current", "in force")
	w.run("open the edit form", chromedp.Click(css(`#edit > summary`)))
	w.send("make it a draft", chromedp.SetValue(css(`#d-status`), "draft"), chromedp.Click(css(`#document-edit button:not([name])`)))
	w.has(`#doc-status`, "Draft", "not in force")
	w.has(`#history`, "admin moved this to Draft")
	w.open("/projects/garden", `#project-documents`)
	w.has(`#project-documents`, "Slugs like lettuce", "Finding", "Draft")
	w.hasNot(`#project-documents`, "in force")
}

// browserRepeatingTask adds a repeating task to the garden and works it
// from its page, skipping it last: the page gives way to the next
// occurrence, a task of its own, which the project lists in place of the
// one skipped; completing that lands on the one after, and its toast's
// Undo reopens it.
func browserRepeatingTask(w *walk) {
	w.open("/projects/garden", `#project-task-add`)
	w.send("add a repeating task", chromedp.SendKeys(css(`#pt-text`), "Water the tomatoes every day"), chromedp.Submit(css(`#pt-text`)))
	w.send("open it", chromedp.Click(css(`#project-tasks li a[href^="/tasks/"]`)))
	w.has(`dl.fields`, "Repeats")
	first := w.text(`#due`)

	w.run("open the edit form", chromedp.Click(css(`#edit > summary`)))
	w.send("move this one only", chromedp.Clear(css(`#e-until`)), chromedp.SendKeys(css(`#e-until`), "in 3 days"),
		chromedp.SetValue(css(`#e-applies`), "this_one"), chromedp.Click(css(`#task-edit button[type=submit]`)))
	w.has(`#history`, "(this occurrence only)")
	moved := w.text(`#due`)
	if moved == first {
		w.t.Fatalf("moving this one left it due %q", moved)
	}

	w.run("open the edit form", chromedp.Click(css(`#edit > summary`)))
	w.send("change the rest from now on", chromedp.SendKeys(css(`#e-imp`), "4"), chromedp.SetValue(css(`#e-applies`), "from_now_on"),
		chromedp.Click(css(`#task-edit button[type=submit]`)))
	w.has(`#history`, "set the importance to 4 (from now on)")

	w.send("add a subtask", chromedp.SendKeys(css(`#subtask-text`), "Buy a longer hose"), chromedp.Submit(css(`#subtask-text`)))
	w.has(`#subtasks`, "Buy a longer hose")

	w.send("claim it", chromedp.Click(css(`#claim-form button`)))
	w.has(`#claim`, "held by admin")
	w.send("release it", chromedp.Click(css(`form[action$="/release"] button`)))
	w.has(`#claim`, "not claimed")
	w.has(`#history`, "admin released the claim of admin")
	w.shot("task-repeating")

	skipped := w.location()
	w.send("skip this one", chromedp.Click(css(`form[action$="/skip"] button`)))
	next := w.location()
	if next == skipped {
		w.t.Fatalf("Skip stayed on %s", skipped)
	}
	w.has(`#notice`, "This is the next occurrence.")
	w.has(`#toast`, "Skipped Water the tomatoes")
	w.has(`#status`, "To do")
	w.has(`dl.fields`, "Repeats", "4 / –")
	if due := w.text(`#due`); due == moved {
		w.t.Fatalf("the next one is due %q, as the one skipped", due)
	}
	w.shot("task-next")
	w.send("open the one skipped from the toast", chromedp.Click(css(`#toast a`)))
	w.has(`#status`, "Cancelled")
	w.has(`#history`, "admin skipped this occurrence")
	w.open("/projects/garden", `#project-tasks`)
	w.send("the project lists the next one", chromedp.Click(chromedp.Search(`//ul[@id="project-tasks"]/li[contains(., "Water the tomatoes")]//a[@class="title"]`)))
	if got := w.location(); got != next {
		w.t.Fatalf("the project lists %s, not the next one %s", got, next)
	}

	w.send("complete it", chromedp.Click(css(`form[action$="/complete"] button`)))
	third := w.location()
	if third == next {
		w.t.Fatalf("Complete stayed on %s", next)
	}
	w.has(`#notice`, "This is the next occurrence.")
	w.has(`#toast`, "Completed Water the tomatoes")
	w.send("Undo", chromedp.Click(css(`#toast button`)))
	if got := w.location(); got != third {
		w.t.Fatalf("Undo went to %s, not back to %s", got, third)
	}
	w.run("the one completed", chromedp.Navigate(next), chromedp.WaitVisible(css(`#status`)))
	w.has(`#status`, "To do")
}

// location is the address of the page the browser shows, without its
// query and fragment.
func (w *walk) location() string {
	w.t.Helper()
	u, err := chromedp.Run(w.ctx, chromedp.Location())
	if err != nil {
		w.t.Fatal(err)
	}
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	return u
}

// css names an element by a CSS selector, as chromedp.CSS does.
type css = chromedp.CSS
