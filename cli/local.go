package cli

import (
	"context"
	"encoding/json"
	"net/url"

	"tend/app"
	"tend/web/wire"
)

// Local is a Client that calls the Service on the database file itself, as
// the account of a LocalSession. Each method makes the Service call the
// route's handler makes, on the request as the server would read it (the
// body a Remote sends, read back by wire.DecodeBody; the query parameters,
// read by the same wire readers), and answers with the same wire records;
// a refusal is the problem document the server would have written.
type Local struct {
	svc       *app.Service
	actor     app.Actor
	serving   app.Serving
	workspace string
	file      string
}

// NewLocal is a client of svc, opened on the database file file, acting as
// session's account in workspace ("" when the account reaches one only).
func NewLocal(svc *app.Service, session app.LocalSession, workspace, file string) *Local {
	return &Local{svc: svc, actor: session.Actor, serving: session.Serving, workspace: workspace, file: file}
}

// Where is the database file.
func (l *Local) Where() string { return l.file }

// WebURL is where tend serve last said it serves this file, "" when it
// never has.
func (l *Local) WebURL() string { return l.serving.URL() }

// received is the request record in as the server receives it: written
// as a Remote sends it, then read back as the route reads its body, so
// that what the server refuses of a body (its size, U+0000, a value it
// cannot read) is refused here alike.
func received[T any](l *Local, in T) (T, error) {
	var out T
	raw, err := json.Marshal(in)
	if err != nil {
		return out, err
	}
	return out, problemOf(wire.DecodeBody(raw, &out, l.svc.Limits().MaxBodyBytes))
}

// params are the query parameters q with the workspace, as the server reads them.
func (l *Local) params(q url.Values) wire.QueryParams {
	q = cloneValues(q)
	if l.workspace != "" {
		q.Set("workspace_id", l.workspace)
	}
	return wire.QueryParams(q)
}

func (l *Local) task(t app.Task, err error) (wire.Task, error) {
	if err != nil {
		return wire.Task{}, problemOf(err)
	}
	return wire.NewTask(t), nil
}

// Me is GET /v1/me.
func (l *Local) Me(ctx context.Context) (wire.Me, error) {
	me, err := l.svc.Me(ctx, l.actor)
	if err != nil {
		return wire.Me{}, problemOf(err)
	}
	return wire.NewMe(me), nil
}

// AddTask is POST /v1/tasks.
func (l *Local) AddTask(ctx context.Context, in wire.TaskCreate) (wire.Task, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Task{}, err
	}
	return l.task(l.svc.CreateTask(ctx, l.actor, l.workspace, in.App()))
}

// Tasks is GET /v1/tasks.
func (l *Local) Tasks(ctx context.Context, q url.Values) (TaskPage, error) {
	in, qq := wire.TaskListQuery(l.params(q))
	if err := qq.Err(); err != nil {
		return TaskPage{}, problemOf(err)
	}
	list, err := l.svc.Tasks(ctx, l.actor, in)
	if err != nil {
		return TaskPage{}, problemOf(err)
	}
	out := TaskPage{Tasks: wire.NewTasks(list.Items), Page: wire.NewPage(list.Page)}
	if format := qq.Str("format"); format != "" && format != "full" {
		shaped, err := wire.ShapeItems(out.Tasks, format, qq.Str("fields"), func(t wire.Task) string { return t.ID }, wire.TaskLine)
		if err != nil {
			return TaskPage{}, problemOf(err)
		}
		lines, ok := shaped.([]string)
		if !ok || format != "compact" {
			return TaskPage{}, problemOf(app.Invalidf("query.format", "the terminal reads format full or compact"))
		}
		out.Tasks, out.Lines = nil, lines
	}
	return out, nil
}

// Agenda is GET /v1/agenda.
func (l *Local) Agenda(ctx context.Context, q url.Values) (wire.Agenda, error) {
	in, qq := wire.AgendaQuery(l.params(q))
	if err := qq.Err(); err != nil {
		return wire.Agenda{}, problemOf(err)
	}
	ag, err := l.svc.Agenda(ctx, l.actor, in)
	if err != nil {
		return wire.Agenda{}, problemOf(err)
	}
	return wire.NewAgenda(ag), nil
}

// Task is GET /v1/tasks/{ref}.
func (l *Local) Task(ctx context.Context, ref string) (wire.Task, error) {
	return l.task(l.svc.TaskGet(ctx, l.actor, l.workspace, trimRef(ref)))
}

// Show is GET /v1/items/{ref}.
func (l *Local) Show(ctx context.Context, ref string) (wire.ItemShow, error) {
	it, err := l.svc.ShowItem(ctx, l.actor, l.workspace, trimRef(ref), app.ShowQuery{})
	if err != nil {
		return wire.ItemShow{}, problemOf(err)
	}
	return wire.NewItemShow(it), nil
}

// Search is GET /v1/search.
func (l *Local) Search(ctx context.Context, q url.Values) (wire.ItemSearch, error) {
	in, qq := wire.ItemSearchQuery(l.params(q))
	if err := qq.Err(); err != nil {
		return wire.ItemSearch{}, problemOf(err)
	}
	res, err := l.svc.SearchItems(ctx, l.actor, in)
	if err != nil {
		return wire.ItemSearch{}, problemOf(err)
	}
	return wire.NewItemSearch(res), nil
}

// Complete is POST /v1/tasks/{ref}/complete.
func (l *Local) Complete(ctx context.Context, ref string, in wire.Completion) (wire.Task, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Task{}, err
	}
	done, err := l.svc.CompleteTask(ctx, l.actor, l.workspace, trimRef(ref), in.App())
	return l.task(done.Task, err)
}

// Skip is POST /v1/tasks/{ref}/skip.
func (l *Local) Skip(ctx context.Context, ref string) (wire.Task, error) {
	return l.task(l.svc.SkipTask(ctx, l.actor, l.workspace, trimRef(ref)))
}

// Claim is POST /v1/tasks/{ref}/claim.
func (l *Local) Claim(ctx context.Context, ref string, in wire.Claim) (wire.Task, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Task{}, err
	}
	return l.task(l.svc.ClaimTask(ctx, l.actor, l.workspace, trimRef(ref), in.Minutes))
}

// ClaimNext is POST /v1/tasks/next/claim.
func (l *Local) ClaimNext(ctx context.Context, q url.Values) (wire.Task, error) {
	in, qq := wire.NextClaimQuery(l.params(q))
	if err := qq.Err(); err != nil {
		return wire.Task{}, problemOf(err)
	}
	return l.task(l.svc.ClaimNextTask(ctx, l.actor, in))
}

// Release is POST /v1/tasks/{ref}/release.
func (l *Local) Release(ctx context.Context, ref string) (wire.Task, error) {
	return l.task(l.svc.ReleaseTask(ctx, l.actor, l.workspace, trimRef(ref)))
}

// UpdateTask is PATCH /v1/tasks/{ref}.
func (l *Local) UpdateTask(ctx context.Context, ref string, in wire.TaskUpdate) (wire.Task, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Task{}, err
	}
	return l.task(l.svc.UpdateTask(ctx, l.actor, l.workspace, trimRef(ref), in.App()))
}

// Statuses is GET /v1/statuses.
func (l *Local) Statuses(ctx context.Context, entity string) ([]wire.Status, error) {
	sts, err := l.svc.Statuses(ctx, l.actor, l.workspace, entity)
	if err != nil {
		return nil, problemOf(err)
	}
	out := make([]wire.Status, len(sts))
	for i, st := range sts {
		out[i] = wire.NewStatus(st)
	}
	return out, nil
}

// Comment is POST /v1/items/{ref}/comments.
func (l *Local) Comment(ctx context.Context, ref string, in wire.CommentCreate) (wire.Comment, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Comment{}, err
	}
	c, err := l.svc.AddComment(ctx, l.actor, l.workspace, app.AnyItem, trimRef(ref), in.App())
	if err != nil {
		return wire.Comment{}, problemOf(err)
	}
	return wire.NewComment(c), nil
}

// Link is POST /v1/items/{ref}/links.
func (l *Local) Link(ctx context.Context, ref string, in wire.LinkRequest) (wire.Link, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.Link{}, err
	}
	ls, err := l.svc.AddLinks(ctx, l.actor, l.workspace, in.App().Set(app.AnyItem, trimRef(ref)))
	if err != nil {
		return wire.Link{}, problemOf(err)
	}
	return wire.NewLink(ls[0]), nil
}

// AddDocument is POST /v1/documents.
func (l *Local) AddDocument(ctx context.Context, in wire.DocumentCreate) (wire.FiledDocument, error) {
	in, err := received(l, in)
	if err != nil {
		return wire.FiledDocument{}, err
	}
	d, err := l.svc.CreateDocument(ctx, l.actor, l.workspace, in.App())
	if err != nil {
		return wire.FiledDocument{}, problemOf(err)
	}
	return wire.NewFiledDocument(d), nil
}

// Document is GET /v1/documents/{ref}.
func (l *Local) Document(ctx context.Context, ref string) (wire.Document, error) {
	d, err := l.svc.DocumentGet(ctx, l.actor, l.workspace, trimRef(ref))
	if err != nil {
		return wire.Document{}, problemOf(err)
	}
	return wire.NewDocument(d), nil
}

// Projects is GET /v1/projects.
func (l *Local) Projects(ctx context.Context) ([]wire.Project, error) {
	ps, err := l.svc.Projects(ctx, l.actor, l.workspace, false)
	if err != nil {
		return nil, problemOf(err)
	}
	out := make([]wire.Project, len(ps))
	for i, p := range ps {
		out[i] = wire.NewProject(p)
	}
	return out, nil
}

// Tags is GET /v1/tags, the first page of tagLimit.
func (l *Local) Tags(ctx context.Context) ([]string, error) {
	page, err := l.svc.Tags(ctx, l.actor, l.workspace, tagLimit, "", false)
	if err != nil {
		return nil, problemOf(err)
	}
	out := make([]string, len(page.Items))
	for i, t := range page.Items {
		out[i] = t.Name
	}
	return out, nil
}
