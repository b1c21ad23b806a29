package web

import (
	"context"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func shapeTasks(ts []app.Task, q *wire.Query) (any, error) {
	return shape(q, ts, wire.NewTask, func(t wire.Task) string { return t.ID }, wire.TaskLine)
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
		return wire.WriteTaskPage(w, http.StatusOK, out, wire.Map(list.Items, wire.NewTask))
	}
	if out.Items, err = shapeTasks(list.Items, q); err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}

func (s *Server) handleTaskCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.TaskCreate) error {
	return replyTask(w, http.StatusCreated)(s.app.CreateTask(r.Context(), a, wsParam(r), in.App()))
}

// writeTask answers with one full task record.
func writeTask(w http.ResponseWriter, status int, t app.Task) error {
	return wire.WriteTask(w, status, wire.NewTask(t))
}

func (s *Server) handleTaskGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyShaped(w, r, shapeTasks, writeTask)(s.app.TaskGet(r.Context(), a, wsParam(r), taskRef(r)))
}

// taskRef is the {id_or_ref} path parameter. One that cannot name a task
// ("abc") is not refused as malformed: a path names a resource, and a path
// that names none answers 404, as SPEC.md's id_or_ref and the one answer
// of the disclosure rule for what is not there have it. A ref sent in a
// body, or as an MCP argument, is a field, and is refused as one (422).
func taskRef(r *http.Request) string { return wire.Param(r, "task") }

func (s *Server) handleTaskUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.TaskUpdate) error {
	return replyTask(w, http.StatusOK)(s.app.UpdateTask(r.Context(), a, wsParam(r), taskRef(r), in.App()))
}

// taskAction is one service call on the task named in the path.
type taskAction func(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Task, error)

// handleTaskAction answers a task action (restore, release) with
// the task as the action left it. The actions take no body: an empty one or
// a JSON object without fields.
func (s *Server) handleTaskAction(act taskAction) handlerFunc {
	return withoutBody(s, func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return replyTask(w, http.StatusOK)(act(r.Context(), a, wsParam(r), taskRef(r)))
	})
}

// handleTaskDelete trashes a task. A DELETE's body means nothing and is not
// read, as on every other DELETE route.
func (s *Server) handleTaskDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyTask(w, http.StatusOK)(s.app.DeleteTask(r.Context(), a, wsParam(r), taskRef(r)))
}

func (s *Server) handleTaskClaim(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if taskRef(r) == "next" {
		return withQuery(wire.NextClaimQuery, s.handleTaskClaimNext)(w, r, a)
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
	return replyTask(w, http.StatusOK)(s.app.ClaimTask(r.Context(), a, wsParam(r), taskRef(r), minutes))
}

// handleTaskComplete completes a task, recording the verification the body
// may carry with it. The answer is the task, as for every task action; the
// verification is listed at .../verifications.
func (s *Server) handleTaskComplete(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.Completion) error {
	return replyFinished(w)(s.app.CompleteTask(r.Context(), a, wsParam(r), taskRef(r), in.App()))
}

// handleTaskSkip lets one occurrence of a repeating task go by.
func (s *Server) handleTaskSkip(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyFinished(w)(s.app.SkipOccurrence(r.Context(), a, wsParam(r), taskRef(r)))
}

// replyFinished answers a task completed or skipped with the task and, when
// it brought the next occurrence of its repeat, a Link header naming that
// one (RFC 8288, rel="next"): the body stays the task record every task
// action answers, and a client that wants to go on to the next reads it.
func replyFinished(w http.ResponseWriter) func(app.Completed, error) error {
	return func(done app.Completed, err error) error {
		if err == nil && done.Next != nil {
			w.Header().Set("Link", "</v1/tasks/"+wire.Itoa64(done.Next.Ref)+`>; rel="next"`)
		}
		return replyTask(w, http.StatusOK)(done.Task, err)
	}
}

func (s *Server) handleTaskMove(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.Move) error {
	return replyTask(w, http.StatusOK)(s.app.MoveTask(r.Context(), a, wsParam(r), taskRef(r), in.Task()))
}

func (s *Server) handleVerificationList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewVerification)(s.app.Verifications(r.Context(), a, wsParam(r), taskRef(r)))
}

func (s *Server) handleVerificationAdd(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.RecordVerification) error {
	return reply(w, http.StatusCreated, wire.NewVerification)(s.app.AddVerification(r.Context(), a, wsParam(r), taskRef(r), in.App()))
}
