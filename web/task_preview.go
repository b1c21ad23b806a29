package web

import (
	"net/http"
	"slices"
	"strings"

	"tend/app"
	"tend/app/line"
	"tend/web/wire"
)

// taskPreviewJSON is what POST /v1/tasks would make of a body: the task
// as it would be stored, without an id or ref, and how its line was read.
type taskPreviewJSON struct {
	Title           string      `json:"title"`
	Description     *string     `json:"description"`
	Project         string      `json:"project"`
	ProjectPath     string      `json:"project_path"`
	ParentRef       *int64      `json:"parent_ref"`
	Type            string      `json:"type"`
	Status          string      `json:"status"`
	Tags            []string    `json:"tags"`
	Assignee        *string     `json:"assignee"`
	Importance      *int        `json:"importance"`
	Urgency         *int        `json:"urgency"`
	EstimateMinutes *int        `json:"estimate_minutes"`
	DueAt           *string     `json:"due_at"`
	DueIsAllDay     bool        `json:"due_is_all_day"`
	StartsAt        *string     `json:"starts_at"`
	StartsIsAllDay  bool        `json:"starts_is_all_day"`
	Timezone        string      `json:"timezone"`
	Repeat          *repeatJSON `json:"repeat"`
	Spans           []line.Span `json:"spans"`
}

// repeatJSON is a preview's repeat: the rule as the task stores it, in
// words, and its first occurrences (the due first).
type repeatJSON struct {
	Rule           string   `json:"rule"`
	Description    string   `json:"description"`
	FromCompletion bool     `json:"from_completion"`
	Occurrences    []string `json:"occurrences"`
}

func newTaskPreviewJSON(p app.TaskPreview) taskPreviewJSON {
	t := p.Task
	out := taskPreviewJSON{Title: t.Title, Description: optStr(t.Description), Project: t.ProjectKey, ProjectPath: t.ProjectPath,
		ParentRef: t.ParentRef, Type: t.Type.Key, Status: t.Status.Key, Tags: t.Tags, Assignee: optStr(t.Assignee),
		Importance: t.Importance, Urgency: t.Urgency, EstimateMinutes: t.EstimateMinutes, DueAt: wire.StampPtr(t.DueAt),
		DueIsAllDay: t.DueIsAllDay, StartsAt: wire.StampPtr(t.StartsAt), StartsIsAllDay: t.StartsIsAllDay,
		Timezone: t.Timezone, Spans: p.Spans}
	if out.Timezone == "" {
		out.Timezone = t.ReaderZone
	}
	if out.Spans == nil {
		out.Spans = []line.Span{}
	}
	if t.RepeatRule != "" {
		out.Repeat = &repeatJSON{Rule: t.RepeatRule, Description: t.RecurrenceDescription,
			FromCompletion: strings.Contains(t.RepeatRule, "X-TEND-FROM-COMPLETION:TRUE"), Occurrences: stamps(p.Occurrences)}
	}
	return out
}

// handleTaskPreview answers what POST /v1/tasks would make of the same
// body and query, creating nothing: the quick-add box shows it while a
// person types, so a misreading is seen before it is stored.
func (s *Server) handleTaskPreview(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.TaskCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	p, err := s.app.PreviewTask(r.Context(), a, wsParam(r), in)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newTaskPreviewJSON(p))
}

// handleNamed registers h for method on a path ending in a wildcard
// (/v1/tasks/:task) that serves only name there (/v1/tasks/preview):
// httprouter cannot hold a static segment beside a wildcard in one
// method's tree. Any other value is answered as the router answers a
// method its path does not take, before authentication: 405, with Allow.
func (s *Server) handleNamed(method, path, name string, h handlerFunc) {
	param := path[strings.LastIndexByte(path, ':')+1:]
	s.api.add(method, path, func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		if wire.Param(r, param) != name {
			return notThisMethod(r)
		}
		return h(w, r, a)
	})
	s.router.Handler(method, path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var err error
		if wire.Param(r, param) != name {
			s.setAllow(w, r)
			err = notThisMethod(r)
		} else {
			var a app.Actor
			if a, err = s.authenticate(r); err == nil {
				err = h(w, r, a)
			}
		}
		if err != nil {
			wire.WriteProblem(s.log, w, r, err)
		}
	}))
}

// notThisMethod is the router's refusal of a method a path does not take.
func notThisMethod(r *http.Request) error {
	return app.Errorf(app.CodeMethodNotAllowed, "%s does not answer %s; see the Allow header", r.URL.Path, r.Method)
}

// setAllow names the methods the router serves on the request's path, as
// it does with a 405.
func (s *Server) setAllow(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodDelete, http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodPut} {
		if h, _, _ := s.router.Lookup(m, r.URL.Path); h != nil && m != r.Method {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		allow = append(allow, http.MethodOptions)
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
	}
}

// optStr is s, or null when empty.
func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
