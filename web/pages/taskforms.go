package pages

import (
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// taskEdit reads the task's edit form into the PATCH body's record, of the
// fields the person changed (see edit.go): each input is the field of its
// name, written as text (wire.TaskUpdate.SetText: "" clears what can be
// cleared).
func taskEdit(f *pageForm) (wire.TaskUpdate, error) {
	var in wire.TaskUpdate
	var err error
	if in.ExpectedVersion, err = f.version(); err != nil {
		return in, err
	}
	for _, name := range wire.TaskUpdateFields {
		text := f.str(name)
		switch {
		case !f.changed(name), name == "applies_to" && text == "":
			// A form sends applies_to empty when the task does not repeat.
			continue
		case name == "timezone":
			// Blanks name no zone: the task's times are read in UTC.
			text = strings.TrimSpace(text)
		}
		if err := in.SetText(name, text); err != nil {
			return in, app.Invalidf("form."+name, "%s: %s", name, app.AsError(err).Detail)
		}
	}
	return in, nil
}

// pageTaskSkip lets one occurrence of a repeating task go by, and goes on
// to the next (onToNext).
func (s *Server) pageTaskSkip(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.onToNext(w, r, func(ws, ref string) (app.Completed, error) {
		return s.app.SkipOccurrence(r.Context(), a, ws, ref)
	})
}

// pageSubtaskAdd adds a subtask from a captured line and shows the parent.
func (s *Server) pageSubtaskAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	if _, err := s.app.CreateTask(r.Context(), a, workspaceOf(r), app.TaskCreate{Text: f.str("text"), Parent: app.FlexRef(ref)}); err != nil {
		return err
	}
	return seeOther(w, r, "/tasks/"+ref+"#subtasks")
}

// pageLinkAdd links the item to another. The other is a ref ("#12"), as
// the picker fills it in; anything else is words to find it by, and the
// answer is the page that lists what they find, each to pick (the picker
// without a script).
func (s *Server) pageLinkAdd(entity string) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		f, err := s.form(w, r)
		if err != nil {
			return err
		}
		ref, target := wire.Param(r, "ref"), strings.TrimSpace(f.str("target"))
		kind, direction, _ := strings.Cut(f.str("link_type"), ":")
		if app.CheckRef("form.target", target) != nil && target != "" {
			return s.renderPick(w, r, a, entity, ref, f.str("link_type"), target)
		}
		in := app.LinkRequest{LinkType: kind, Direction: direction, Target: app.FlexRef(strings.TrimPrefix(target, "#"))}
		if in.TargetType = f.str("target_type"); in.TargetType == "" {
			if in.TargetType, err = s.otherKind(r, a, in.Target); err != nil {
				return err
			}
		}
		if in.LinkType == "" {
			in.LinkType, in.Direction = fittingLink(entity, in.TargetType)
		}
		if _, err := s.app.AddLinks(r.Context(), a, workspaceOf(r), in.Set(entity, ref)); err != nil {
			return err
		}
		return seeOther(w, r, "/"+entity+"s/"+ref+"#links")
	}
}

// fittingLink is the link the form makes when the person leaves its type
// at "fits what you pick": between a task and a document, the document
// documents the task (so it governs it, when it is in force); otherwise
// the two relate. Never blocks, which would change what is ready.
func fittingLink(from, to string) (kind, direction string) {
	switch {
	case from == "task" && to == "document":
		return "documents", "incoming"
	case from == "document" && to == "task":
		return "documents", ""
	}
	return "relates_to", ""
}

// otherKind is whether a ref names a task or a document: refs are shared,
// and a link names its far end's kind. A ref nobody may see is left to
// AddLinks, which refuses it as it refuses one that does not exist.
func (s *Server) otherKind(r *http.Request, a app.Actor, ref app.FlexRef) (string, error) {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), string(ref), app.ShowQuery{})
	if app.CodeOf(err) == app.CodeNotFound {
		return "task", nil
	}
	return show.Kind, err
}

// pageLinkRemove removes one of the item's links.
func (s *Server) pageLinkRemove(entity string) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		if _, err := s.form(w, r); err != nil {
			return err
		}
		ref := wire.Param(r, "ref")
		if err := s.app.RemoveLink(r.Context(), a, workspaceOf(r), entity, ref, wire.Param(r, "link")); err != nil {
			return err
		}
		return seeOther(w, r, "/"+entity+"s/"+ref+"#links")
	}
}

// pickData is the no-script picker: what the words found, each to link.
type pickData struct {
	Entity, Ref, LinkType, Words string
	Found                        []pickItem
	More                         bool
}

// pickItem is one item the picker offers.
type pickItem struct {
	Ref                int64
	Title, Kind, Label string // Kind is task or document, Label its type
	Where, State       string
}

func (s *Server) renderPick(w http.ResponseWriter, r *http.Request, a app.Actor, entity, ref, linkType, words string) error {
	found, more, err := s.pick(r, a, words)
	if err != nil {
		return err
	}
	d := pickData{Entity: entity, Ref: ref, LinkType: linkType, Words: words, Found: found, More: more}
	return s.render(w, http.StatusOK, "pick", s.view(r, a, "Pick what to link", entity+"s", d))
}

// pick searches tasks and documents for the words a person is typing; the
// last word is taken as the start of a word.
func (s *Server) pick(r *http.Request, a app.Actor, words string) ([]pickItem, bool, error) {
	q := strings.TrimSpace(words)
	if last := q[strings.LastIndexAny(q, " ")+1:]; last != "" && !strings.ContainsAny(last, `:*"#+-`) {
		q += "*"
	}
	res, err := s.app.SearchItems(r.Context(), a, app.ItemSearchQuery{Workspace: workspaceOf(r), Q: q, Limit: 8})
	if err != nil {
		return nil, false, err
	}
	var out []pickItem
	for _, t := range res.Tasks {
		out = append(out, pickItem{Ref: t.Ref, Title: t.Title, Kind: "task", Label: t.Type.Label, Where: t.ProjectPath, State: t.Status.Label})
	}
	for _, d := range res.Documents {
		out = append(out, pickItem{Ref: d.Ref, Title: d.Title, Kind: "document", Label: d.Type.Label, Where: d.ProjectPath, State: d.Status.Label})
	}
	return out, res.TasksMore || res.DocumentsMore, nil
}

// pagePick answers the picker's script as a person types: the options it
// lists, as an HTML fragment. Words that are no search (too short, a term
// half typed) find nothing rather than refuse, so typing never shows an
// error.
func (s *Server) pagePick(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	words := strings.TrimSpace(r.URL.Query().Get("q"))
	var found []pickItem
	if words != "" {
		var err error
		found, _, err = s.pick(r, a, words)
		if c := app.CodeOf(err); err != nil && c != app.CodeValidation && c != app.CodeInvalid {
			return err
		}
	}
	var b strings.Builder
	if err := templates().ExecuteTemplate(&b, "pick_options", found); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, err := w.Write([]byte(b.String()))
	return err
}

// pagePreview renders Markdown as the pages do (goldmark, raw HTML left
// out), for the live preview beside a text box: an HTML fragment.
func (s *Server) pagePreview(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, err = w.Write([]byte(renderMarkdown(f.str("text"))))
	return err
}
