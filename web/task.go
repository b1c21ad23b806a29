package web

import (
	"context"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func shapeTasks(ts []app.Task, q *wire.Query) (any, error) {
	items := make([]wire.Task, len(ts))
	for i, t := range ts {
		items[i] = wire.NewTask(t)
	}
	return wire.ShapeItems(items, q.Str("format"), q.Str("fields"), func(t wire.Task) string { return t.ID }, wire.TaskLine)
}

func (s *Server) handleTaskList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := wire.TaskListQuery(wire.QueryParams(r.URL.Query()))
	if err := q.Err(); err != nil {
		return err
	}
	list, err := s.app.Tasks(r.Context(), a, in)
	if err != nil {
		return err
	}
	var out wire.TaskList
	if in.GroupBy != "" {
		out.Groups = []wire.TaskGroup{}
		for _, g := range list.Groups {
			items, err := shapeTasks(g.Items, q)
			if err != nil {
				return err
			}
			out.Groups = append(out.Groups, wire.TaskGroup{Key: g.Key, Items: items, Page: wire.NewPage(g.Page)})
		}
		return wire.WriteJSON(w, http.StatusOK, out)
	}
	page := wire.NewPage(list.Page)
	out.Page = &page
	if in.IncludeLinks {
		links := []wire.PageLink{}
		for _, l := range list.Links {
			links = append(links, wire.PageLink{ID: l.ID, LinkType: l.LinkType, Label: l.Label, Source: l.Source, Target: l.Target})
		}
		out.Links = &links
	}
	if format := q.Str("format"); q.Str("fields") == "" && (format == "" || format == "full") {
		items := make([]wire.Task, len(list.Items))
		for i, t := range list.Items {
			items[i] = wire.NewTask(t)
		}
		return wire.WriteTaskPage(w, http.StatusOK, out, items)
	}
	if out.Items, err = shapeTasks(list.Items, q); err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}

func (s *Server) handleTaskCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.TaskCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.CreateTask(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusCreated, wire.NewTask(t))
}

// writeTask answers with one task, honouring format and fields.
func writeTask(w http.ResponseWriter, r *http.Request, status int, t app.Task) error {
	q := wire.NewQuery(r)
	if q.Str("format") == "" && q.Str("fields") == "" {
		return wire.WriteTask(w, status, wire.NewTask(t))
	}
	shaped, err := shapeTasks([]app.Task{t}, q)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, status, wire.FirstOf(shaped))
}

func (s *Server) handleTaskGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	t, err := s.app.TaskGet(r.Context(), a, wsParam(r), taskRef(r))
	if err != nil {
		return err
	}
	return writeTask(w, r, http.StatusOK, t)
}

// taskRef is the {id_or_ref} path parameter. One that cannot name a task
// ("abc") is not refused as malformed: a path names a resource, and a path
// that names none answers 404, as SPEC.md's id_or_ref and the one answer
// of the disclosure rule for what is not there have it. A ref sent in a
// body, or as an MCP argument, is a field, and is refused as one (422).
func taskRef(r *http.Request) string { return wire.Param(r, "task") }

func (s *Server) handleTaskUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.TaskUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.UpdateTask(r.Context(), a, wsParam(r), taskRef(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusOK, wire.NewTask(t))
}

// taskAction is one service call on the task named in the path.
type taskAction func(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Task, error)

// handleTaskAction answers a task action (restore, skip, release) with
// the task as the action left it. The actions take no body: an empty one or
// a JSON object without fields.
func (s *Server) handleTaskAction(act taskAction) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
			return err
		}
		return answerTaskAction(w, r, a, act)
	}
}

// handleTaskDelete trashes a task. A DELETE's body means nothing and is not
// read, as on every other DELETE route.
func (s *Server) handleTaskDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return answerTaskAction(w, r, a, s.app.DeleteTask)
}

func (s *Server) handleTaskClaim(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if taskRef(r) == "next" {
		return s.handleTaskClaimNext(w, r, a)
	}
	var body wire.Claim
	if err := s.decodeActionBody(w, r, &body); err != nil {
		return err
	}
	q := wire.NewQuery(r)
	minutes := body.Minutes
	if q.Str("minutes") != "" {
		m := q.Int("minutes")
		if minutes != nil && *minutes != m {
			q.Refuse(app.Invalidf("body.minutes", "minutes is in the query and the body with different values; send it once"))
		}
		minutes = &m
	}
	if err := q.Err(); err != nil {
		return err
	}
	return answerTaskAction(w, r, a, func(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Task, error) {
		return s.app.ClaimTask(ctx, a, workspace, idOrRef, minutes)
	})
}

func answerTaskAction(w http.ResponseWriter, r *http.Request, a app.Actor, act taskAction) error {
	t, err := act(r.Context(), a, wsParam(r), taskRef(r))
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusOK, wire.NewTask(t))
}

// handleTaskComplete completes a task, recording the verification the body
// may carry with it. The answer is the task, as for every task action; the
// verification is listed at .../verifications.
func (s *Server) handleTaskComplete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.Completion
	if err := s.decodeActionBody(w, r, &in); err != nil {
		return err
	}
	done, err := s.app.CompleteTask(r.Context(), a, wsParam(r), taskRef(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusOK, wire.NewTask(done.Task))
}

func (s *Server) handleTaskMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.Move
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.MoveTask(r.Context(), a, wsParam(r), taskRef(r), in.Task())
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusOK, wire.NewTask(t))
}

func (s *Server) handleVerificationList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	vs, err := s.app.Verifications(r.Context(), a, wsParam(r), taskRef(r))
	if err != nil {
		return err
	}
	items := make([]wire.Verification, len(vs))
	for i, v := range vs {
		items[i] = wire.NewVerification(v)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleVerificationAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.RecordVerification
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	v, err := s.app.AddVerification(r.Context(), a, wsParam(r), taskRef(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, wire.NewVerification(v))
}
