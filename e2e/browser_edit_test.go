package e2e

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserEdit walks what people create, with JavaScript: a project
// with a task, a decision written with its live preview, linked to the
// task by the search-as-you-type picker, the task edited and claimed with
// the history in words, an unknown URL, and a live update landing while a
// line is half typed, which keeps it. Its NoScript subtest walks the
// same without JavaScript: the Preview button, the search-and-pick page.
// Every page is photographed at 1280 and 390 px, light and dark, checked
// to keep to the window's width and with axe.
func TestBrowserEdit(t *testing.T) { walkTwice(t, browserEdit) }

func browserEdit(w *walk) {
	t, noScript := w.t, w.noScript
	ctx, base, run, has, shot, until := w.ctx, w.base, w.run, w.has, w.shot, w.until

	run("start a project", chromedp.Navigate(base+"/projects"), chromedp.WaitVisible(chromedp.CSS(`#project-new`)),
		chromedp.SendKeys(chromedp.CSS(`#pn-title`), "Home"), chromedp.SendKeys(chromedp.CSS(`#pn-key`), "home"),
		chromedp.Click(chromedp.CSS(`#project-new button`)), chromedp.WaitVisible(chromedp.CSS(`#project-task-add`)))
	run("add a task to it", chromedp.SendKeys(chromedp.CSS(`#pt-text`), "Fix the fence friday #outside"),
		chromedp.Submit(chromedp.CSS(`#pt-text`)), chromedp.WaitVisible(chromedp.CSS(`#project-tasks li`)))
	has(`#project-tasks`, "Fix the fence", "#outside")
	shot("project")

	run("write a decision in it", chromedp.Click(chromedp.CSS(`#new-document > summary`)),
		chromedp.SendKeys(chromedp.CSS(`#dn-title`), "Fences are wooden"), chromedp.SetValue(chromedp.CSS(`#dn-type`), "decision"),
		chromedp.SendKeys(chromedp.CSS(`#dn-body`), "We build **wooden** fences.\nThey weather well.\n"))
	if !noScript {
		until("the live preview of the new document", `!!document.querySelector("#dn-preview strong")`)
	}
	run("create it", chromedp.Click(chromedp.CSS(`#document-new button[type=submit]`)), chromedp.WaitReady(chromedp.CSS(`#document-edit`)))
	has(`#doc-status`, "in force")
	has(`main .md`, "We build wooden fences.")

	run("edit its body", chromedp.Click(chromedp.CSS(`#edit > summary`)), chromedp.Clear(chromedp.CSS(`#d-body`)),
		chromedp.SendKeys(chromedp.CSS(`#d-body`), "We build **wooden** fences.\nThey weather well, and we paint them green.\n"))
	if noScript {
		if a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#d-body`), "data-previewing")); err != nil || a.Exists {
			t.Fatalf("the page's script ran with JavaScript off (%v)", err)
		}
		run("preview without a script", chromedp.Click(chromedp.CSS(`#document-edit button[name=preview]`)), chromedp.WaitVisible(chromedp.CSS(`#diff ins`)))
		has(`#diff`, "− They weather well.", "+ They weather well, and we paint them green.")
	} else {
		until("the live preview", `document.querySelector("#d-preview").textContent.includes("paint them green.")`)
		if hidden, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#d-preview-box").hidden`)); hidden {
			t.Fatal("the live preview is hidden")
		}
	}
	has(`#d-preview`, "paint them green.")
	shot("document-preview")
	run("save it", chromedp.Click(chromedp.CSS(`#document-edit button:not([name])`)), chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	has(`#notice`, "Saved.")
	has(`main .md`, "paint them green.")

	run("choose to link to a task", chromedp.SetValue(chromedp.CSS(`#link-type`), "documents"), chromedp.SendKeys(chromedp.CSS(`#link-target`), "fen"))
	if noScript {
		run("search and pick without a script", chromedp.Click(chromedp.CSS(`#link-add button`)), chromedp.WaitVisible(chromedp.CSS(`#pick-form`)))
		has(`#pick-form`, "Fix the fence")
		shot("pick")
		run("pick it", chromedp.Click(chromedp.CSS(`#pick-form button`)), chromedp.WaitVisible(chromedp.CSS(`#links ul.links`)))
	} else {
		// The list answers the whole word typed, whatever answers came before it.
		run("see it as it is typed and choose it", chromedp.WaitVisible(chromedp.CSS(`#link-target-options[data-for="fen"] [role=option]`)),
			chromedp.KeyEvent(kb.ArrowDown), chromedp.WaitVisible(chromedp.CSS(`#link-target-options [aria-selected=true]`)))
		run("pick it", chromedp.KeyEvent(kb.Enter))
		if v, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`#link-target`))); !regexp.MustCompile(`^#\d+$`).MatchString(v) {
			t.Fatalf("the picker wrote %q", v)
		}
		run("link it", chromedp.Click(chromedp.CSS(`#link-add button`)), chromedp.WaitVisible(chromedp.CSS(`#links ul.links`)))
	}
	has(`#links`, "documents", "Fix the fence")
	has(`#history`, "admin added a link: this documents #", "admin revised the body", "admin created this")
	shot("document")
	href, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#links ul.links a`), "href"))
	if err != nil {
		t.Fatal(err)
	}

	run("open the task", chromedp.Navigate(base+href.Value), chromedp.WaitReady(chromedp.CSS(`#task-edit`)))
	has(`#links`, "Governed by", "Fences are wooden")
	run("assign it and give it a due date", chromedp.Click(chromedp.CSS(`#edit > summary`)),
		chromedp.SendKeys(chromedp.CSS(`#e-assignee`), "admin"), chromedp.Clear(chromedp.CSS(`#e-until`)),
		chromedp.SendKeys(chromedp.CSS(`#e-until`), "tomorrow"), chromedp.SendKeys(chromedp.CSS(`#e-est`), "45"))
	shot("task-edit")
	run("save", chromedp.Click(chromedp.CSS(`#task-edit button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	has(`#assignee`, "admin")
	run("claim it for 30 minutes", chromedp.SetValue(chromedp.CSS(`#claim-minutes`), "30"),
		chromedp.Click(chromedp.CSS(`#claim-form button`)), chromedp.WaitVisible(chromedp.CSS(`form[action$="/release"]`)))
	has(`#claim`, "held by admin")
	has(`#history`, "admin claimed this for 30 minutes", "admin assigned this to admin", "set the due date to", "estimated this at 45 minutes",
		"admin created this")
	shot("task")

	run("an unknown address", chromedp.Navigate(base+"/no/such/page"), chromedp.WaitVisible(chromedp.CSS(`#problem-code`)))
	has(`#problem-code`, "not_found")
	has(`h1`, "Not found")
	shot("not-found")
	run("the documents", chromedp.Navigate(base+"/documents"), chromedp.WaitVisible(chromedp.CSS(`#document-list`)))
	has(`#document-list`, "Fences are wooden", "in force")
	shot("documents")

	if noScript {
		return
	}
	run("half type a line on Today", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`#quick-add-text`)),
		chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), "Call the vet about"))
	w.api(http.MethodPost, "/v1/tasks", map[string]string{"title": "Arrived while typing"}, http.StatusCreated)
	until("the live update", `document.querySelector("main").textContent.includes("Arrived while typing")`)
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id + "|" + document.activeElement.value`))
	if err != nil || v != "quick-add-text|Call the vet about" {
		t.Fatalf("after the live update the focus and the line are %q (%v)", v, err)
	}
	if note, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("live-note").hidden`)); !note {
		t.Fatal("the live update showed the reload note")
	}
	run("finish the line", chromedp.SendKeys(chromedp.CSS(`#quick-add-text`), " the cat"), chromedp.Submit(chromedp.CSS(`#quick-add-text`)),
		chromedp.WaitVisible(chromedp.CSS(`#added`)))
	has(`#added`, "Call the vet about the cat")
}
