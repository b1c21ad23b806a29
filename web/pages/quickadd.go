package pages

import (
	"net/http"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// quickAdd is the quick-add box: the line in it, and the refusal of the
// line last sent, shown beside it so the line is not lost. Query names
// the page's workspace for the script's calls to the API (the preview and
// the create), which read it from the query, not from the cookie.
type quickAdd struct {
	Text  string
	Error string
	Code  app.Code
	Query string
	// Focus keeps the cursor in the box after an add, so the next line
	// is typed straight away.
	Focus bool
}

func newQuickAdd(r *http.Request, text string, err error) quickAdd {
	q := quickAdd{Text: text}
	if ws := workspaceOf(r); ws != "" {
		q.Query = "?workspace_id=" + url.QueryEscape(ws)
	}
	if err != nil {
		q.Error, q.Code = problemMessage(err), wire.NewProblem(err).Code
	}
	return q
}

// pageTaskAdd creates a task from a captured line and shows Today with
// what was understood. A refused line comes back in the box on Today,
// with the refusal beside it and the problem's status; a refusal that is
// not about the line (signed out, no workspace chosen, a fault of the
// server) is the error page.
func (s *Server) pageTaskAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	var text string
	if err == nil {
		text = f.str("text")
		var t app.Task
		if t, err = s.app.CreateTask(r.Context(), a, workspaceOf(r), app.TaskCreate{Text: text}); err == nil {
			// No #added: a page whose address names a fragment skips
			// autofocus, which keeps the cursor in the box.
			return seeOther(w, r, "/?added="+wire.Itoa64(t.Ref))
		}
	} else {
		text = strings.ReplaceAll(r.PostFormValue("text"), "\x00", "")
	}
	p := wire.NewProblem(err)
	if p.Status >= 500 || p.Code == app.CodeUnauthorized || p.Code == app.CodeWorkspaceRequired {
		return err
	}
	return s.today(w, r, a, p.Status, newQuickAdd(r, text, err))
}
