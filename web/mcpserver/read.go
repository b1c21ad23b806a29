package mcpserver

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/web/wire"
)

// toolLimit is the default number of rows of service_list, service_search,
// service_changes and service_journal.
const toolLimit = 20

type listArgs struct {
	Assignee  string            `json:"assignee,omitempty" jsonschema:"username or id; 'me' is the caller"`
	Filter    map[string]string `json:"filter,omitempty" jsonschema:"field filters as GET /v1/tasks takes them, e.g. {\"status\":\"todo\",\"tag.in\":\"ui,api\",\"due_at.lte\":\"friday\",\"importance.gte\":\"4\",\"under\":\"12\"}"`
	Limit     int               `json:"limit,omitempty" jsonschema:"rows to return (default 20)"`
	Order     string            `json:"order,omitempty" jsonschema:"sort fields, comma-separated, '-' first for descending, e.g. -priority_score,due_at"`
	Project   string            `json:"project,omitempty" jsonschema:"project key; includes everything under it"`
	Ready     bool              `json:"ready,omitempty" jsonschema:"only work nothing unfinished blocks, not deferred, not held by another"`
	ToActOn   bool              `json:"to_act_on,omitempty" jsonschema:"only work assigned to you, to nobody, or held by you"`
	Today     bool              `json:"today,omitempty" jsonschema:"the agenda: what is due, overdue or planned for today"`
	Workspace string            `json:"workspace,omitempty" jsonschema:"workspace name or id (needed when you reach several)"`
}

// tasksOut is a page of tasks with their list fields (list.go).
type tasksOut struct {
	Items []taskItemJSON `json:"items"`
	Page  wire.Page      `json:"page"`
	// Agenda is the reader's day, for today: true (GET /v1/agenda);
	// items then holds its overdue and today lists.
	Agenda *wire.AgendaOf[taskItemJSON] `json:"agenda,omitempty"`
}

type searchArgs struct {
	Q         string `json:"q" jsonschema:"words, and terms like type:<key> status:<key> #tag +project"`
	Limit     int    `json:"limit,omitempty" jsonschema:"rows of each kind (default 20)"`
	Project   string `json:"project,omitempty" jsonschema:"project key; includes everything under it"`
	Workspace string `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

// searchOut is the best matches with their list fields (list.go).
type searchOut struct {
	Tasks         []taskItemJSON     `json:"tasks"`
	TasksMore     bool               `json:"tasks_more"`
	Documents     []documentItemJSON `json:"documents"`
	DocumentsMore bool               `json:"documents_more"`
}

type changesArgs struct {
	Filter    map[string]string `json:"filter,omitempty" jsonschema:"created_at.gt, .gte, .lt, .lte: a date or an RFC 3339 instant; action: a,b or task.*; project: key"`
	Limit     int               `json:"limit,omitempty" jsonschema:"rows to return (default 20)"`
	Mine      bool              `json:"mine,omitempty" jsonschema:"only what this credential did"`
	Since     *int64            `json:"since,omitempty" jsonschema:"a seq to read forward from, inclusive; omitted gives the newest"`
	Wait      *int              `json:"wait,omitempty" jsonschema:"with since: seconds (1-60) to wait for a change"`
	Workspace string            `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type changesOut struct {
	Covers []string     `json:"covers"`
	Items  []wire.Event `json:"items"`
	Page   wire.Page    `json:"page"`
}

type journalArgs struct {
	By        string            `json:"by,omitempty" jsonschema:"username whose doings to read; 'me' is this credential"`
	Filter    map[string]string `json:"filter,omitempty" jsonschema:"created_at.gt, .gte, .lt, .lte: a date or an RFC 3339 instant"`
	Limit     int               `json:"limit,omitempty" jsonschema:"rows to return (default 20)"`
	Oldest    bool              `json:"oldest,omitempty" jsonschema:"oldest first instead of most recent first"`
	Workspace string            `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type journalOut struct {
	Covers []string            `json:"covers"`
	Items  []wire.JournalEntry `json:"items"`
	Page   wire.Page           `json:"page"`
}

func readOnly() *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
}

func (m *toolbox) addReadTools() {
	addTool(m, &mcp.Tool{Name: "service_list", Annotations: readOnly(),
		Description: "List tasks, 20 by default. ready+to_act_on is the work waiting for you; filter takes the field filters of GET /v1/tasks (docs/api.md), also assignee.in=a,b, tag.is=unset, touched_by=ann, answers_to=ann."}, m.toolTaskList)
	addTool(m, &mcp.Tool{Name: "service_search", Annotations: readOnly(),
		Description: "Search tasks and documents, best match first."}, m.toolSearch)
	addTool(m, &mcp.Tool{Name: "service_show", Annotations: readOnly(),
		Description: "Show a task or document with its links, governing documents, subtasks, last comments and verifications."}, m.toolShow)
	addTool(m, &mcp.Tool{Name: "service_changes", Annotations: readOnly(),
		Description: "Read the change feed, oldest first."}, m.toolChanges)
	addTool(m, &mcp.Tool{Name: "service_journal", Annotations: readOnly(),
		Description: "Read who did what, with comments and before/after values, most recent first."}, m.toolJournal)
	addTool(m, &mcp.Tool{Name: "service_whoami", Annotations: readOnly(),
		Description: "Who you are: account, the person you answer to, the credential's scopes and narrowing, your workspaces."}, m.toolWhoami)
}

func (m *toolbox) toolTaskList(ctx context.Context, a app.Actor, in listArgs) (string, tasksOut, error) {
	if in.Today {
		return m.agenda(ctx, a, in.Workspace)
	}
	p := argParams{}
	p.set("workspace_id", "workspace", in.Workspace)
	p.set("assignee", "assignee", in.Assignee)
	p.set("project", "project", in.Project)
	p.set("order", "order", in.Order)
	p.set("limit", "limit", strconv.Itoa(cmp(in.Limit, toolLimit)))
	if in.Ready {
		p.set("ready", "ready", "true")
	}
	if in.ToActOn {
		p.set("to_act_on", "to_act_on", "true")
	}
	if err := p.addFilter(in.Filter); err != nil {
		return "", tasksOut{}, err
	}
	q, qv := wire.TaskListQuery(p)
	if err := qv.Err(); err != nil {
		return "", tasksOut{}, err
	}
	list, err := m.s.app.Tasks(ctx, a, q)
	if err != nil {
		return "", tasksOut{}, err
	}
	items := wire.NewTasks(list.Items)
	out := tasksOut{Items: taskItems(items), Page: wire.NewPage(list.Page)}
	return wire.TaskLines(items, "tasks") + moreNote(list.Page.HasMore, len(items), "raise limit, or narrow with project or filter"), out, nil
}

// agenda answers service_list's today: the same agenda as GET /v1/agenda.
func (m *toolbox) agenda(ctx context.Context, a app.Actor, workspace string) (string, tasksOut, error) {
	ag, err := m.s.app.Agenda(ctx, a, app.AgendaQuery{Workspace: workspace})
	if err != nil {
		return "", tasksOut{}, argError(err)
	}
	j := wire.NewAgenda(ag)
	items := agendaItems(j)
	return wire.AgendaLines(j), tasksOut{Items: append(append([]taskItemJSON{}, items.Overdue...), items.Today...), Agenda: &items}, nil
}

// argParams are a tool's arguments as a listing's parameters (params),
// by the parameter's name, each with the place the caller wrote it.
type argParams map[string]argParam

type argParam struct{ val, loc string }

// Values is the argument given for key, none when absent.
func (p argParams) Values(key string) []string {
	if a, ok := p[key]; ok {
		return []string{a.val}
	}
	return nil
}

// Keys are the parameters the arguments give.
func (p argParams) Keys() []string { return slices.Collect(maps.Keys(p)) }

// Loc is where the caller wrote key: arguments.<name> or
// arguments.filter.<key>.
func (p argParams) Loc(key string) string {
	if a, ok := p[key]; ok {
		return a.loc
	}
	return "arguments." + key
}

// set gives the parameter key the value of the argument arg, unless empty.
func (p argParams) set(key, arg, val string) {
	if val != "" {
		p[key] = argParam{val: val, loc: "arguments." + arg}
	}
}

// addFilter passes the filter object's keys through as the task listing's
// parameters of the same names, which app reads (docs/api.md, task
// listing). A key that is not a filter of the listing is refused by name,
// with the key it most likely meant and the keys there are.
func (p argParams) addFilter(f map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(f)) {
		val, loc := f[k], "arguments.filter."+k
		if !app.IsTaskFilterKey(k) {
			keys := app.TaskFilterKeys()
			return app.Invalidf(loc, "filter key %q selects nothing%s; the keys are %s, and a field's operators follow a dot "+
				"(due_at.gte, importance.lte, tag.in, assignee.is: docs/api.md, Field filters)", k, app.DidYouMean(k, keys), strings.Join(keys, ", "))
		}
		if other, ok := p[k]; ok && other.val != val {
			return app.Invalidf(loc, "%s is given twice with different values", k)
		}
		p[k] = argParam{val: val, loc: loc}
	}
	return nil
}

func (m *toolbox) toolSearch(ctx context.Context, a app.Actor, in searchArgs) (string, searchOut, error) {
	res, err := m.s.app.SearchItems(ctx, a, app.ItemSearchQuery{Workspace: in.Workspace, Q: in.Q, Project: in.Project, Limit: cmp(in.Limit, toolLimit)})
	if err != nil {
		return "", searchOut{}, argError(err)
	}
	tasks := wire.NewTasks(res.Tasks)
	docs := wire.Map(res.Documents, wire.NewDocument)
	out := searchOut{Tasks: taskItems(tasks), TasksMore: res.TasksMore, Documents: documentItems(docs), DocumentsMore: res.DocumentsMore}
	text := wire.TaskLines(tasks, "tasks") + moreNote(res.TasksMore, len(tasks), "raise limit or add words") +
		"\n" + documentLines(docs) + moreNote(res.DocumentsMore, len(docs), "raise limit or add words")
	return text, out, nil
}

func (m *toolbox) toolChanges(ctx context.Context, a app.Actor, in changesArgs) (string, changesOut, error) {
	filter := maps.Clone(in.Filter)
	var narrow argParams = map[string]argParam{}
	for _, k := range []string{"action", "project"} {
		if v, ok := filter[k]; ok {
			narrow[k] = argParam{val: v, loc: "arguments.filter." + k}
			delete(filter, k)
		}
	}
	q, err := feedArgs(in.Workspace, filter, in.Limit)
	if err != nil {
		return "", changesOut{}, err
	}
	q.Actions, q.Project, q.Loc = narrow["action"].val, narrow["project"].val, narrow.Loc
	q.Since, q.WaitSeconds = in.Since, in.Wait
	if in.Mine {
		q.Actor = "me"
	}
	page, err := m.s.app.Changes(ctx, a, q)
	if err != nil {
		return "", changesOut{}, argError(err)
	}
	out := changesOut{Covers: page.Covers, Items: make([]wire.Event, len(page.Items)), Page: wire.NewPage(page.Page)}
	rows := make([][]string, len(page.Items))
	for i, e := range page.Items {
		out.Items[i] = wire.NewEvent(e)
		rows[i] = []string{"seq " + wire.Itoa64(e.Seq), wire.Stamp(e.CreatedAt), e.Action, refText(e.ItemRef), e.ItemTitle}
	}
	next := "call again with since set to the last seq + 1"
	return wire.LinesOr(rows, "no changes") + moreNote(page.Page.HasMore, len(rows), next), out, nil
}

func (m *toolbox) toolJournal(ctx context.Context, a app.Actor, in journalArgs) (string, journalOut, error) {
	q, err := feedArgs(in.Workspace, in.Filter, in.Limit)
	if err != nil {
		return "", journalOut{}, err
	}
	q.Actor, q.Oldest = in.By, in.Oldest
	page, err := m.s.app.Journal(ctx, a, q)
	if err != nil {
		return "", journalOut{}, argError(err)
	}
	out := journalOut{Covers: page.Covers, Items: make([]wire.JournalEntry, len(page.Items)), Page: wire.NewPage(page.Page)}
	rows := make([][]string, len(page.Items))
	for i, e := range page.Items {
		out.Items[i] = wire.NewJournalEntry(e)
		what := ""
		if e.Said != nil {
			what = "said " + quoteLine(*e.Said, 80)
		}
		for _, c := range e.Changed {
			what = strings.TrimSpace(what + " " + c.Said)
		}
		rows[i] = []string{wire.Stamp(e.CreatedAt), e.Actor, e.Action, refText(e.ItemRef), what}
	}
	return wire.LinesOr(rows, "nothing recorded") + moreNote(page.Page.HasMore, len(rows), "narrow with filter created_at.lt set to the oldest time shown"), out, nil
}

// feedArgs reads the arguments the feed and the journal share, through the
// same parameter reading as GET /v1/changes and GET /v1/journal.
func feedArgs(workspace string, filter map[string]string, limit int) (app.FeedQuery, error) {
	p := argParams{}
	for k, val := range filter {
		if !strings.HasPrefix(k, "created_at.") {
			return app.FeedQuery{}, app.Invalidf("arguments.filter."+k, "filter takes created_at.gt, .gte, .lt and .lte")
		}
		p[k] = argParam{val: val, loc: "arguments.filter." + k}
	}
	q := wire.QueryOf(p)
	in := app.FeedQuery{Workspace: workspace, CreatedAt: q.CreatedAt(), Limit: cmp(limit, toolLimit)}
	return in, q.Err()
}

type whoamiArgs struct{}

type whoamiOut struct {
	User                wire.Caller            `json:"user"`
	AnswersTo           []string               `json:"answers_to"`
	Credential          *wire.Credential       `json:"credential"`
	InstancePermissions []string               `json:"instance_permissions"`
	Workspaces          []wire.WorkspaceAccess `json:"workspaces"`
}

func (m *toolbox) toolWhoami(ctx context.Context, a app.Actor, _ whoamiArgs) (string, whoamiOut, error) {
	me, err := m.s.app.Me(ctx, a)
	if err != nil {
		return "", whoamiOut{}, err
	}
	out := whoamiOut{User: wire.NewCaller(me.User), AnswersTo: me.AnswersTo, InstancePermissions: me.InstancePermissions,
		Workspaces: make([]wire.WorkspaceAccess, len(me.Workspaces))}
	if out.AnswersTo == nil {
		out.AnswersTo = []string{}
	}
	if me.Credential != nil {
		c := wire.NewCredential(*me.Credential)
		out.Credential = &c
	}
	var b strings.Builder
	b.WriteString("you are " + me.User.Username)
	if len(me.AnswersTo) > 0 {
		b.WriteString(", an agent answering to " + strings.Join(me.AnswersTo, " → "))
	}
	b.WriteString("\n")
	if c := out.Credential; c != nil {
		b.WriteString("credential " + c.Prefix + ": scopes " + strings.Join(c.Scopes, ","))
		if c.ProjectScopeKeys != nil {
			b.WriteString("; reads only projects " + strings.Join(c.ProjectScopeKeys, ","))
		}
		if c.ProjectWriteScopeKeys != nil {
			b.WriteString("; writes only projects " + strings.Join(c.ProjectWriteScopeKeys, ","))
		}
		if c.ExpiresAt != nil {
			b.WriteString("; expires " + *c.ExpiresAt)
		}
		b.WriteString("\n")
	}
	for i, ws := range me.Workspaces {
		out.Workspaces[i] = wire.NewWorkspaceAccess(ws)
		b.WriteString("workspace " + ws.Workspace.Slug + " (" + ws.Role + ")\n")
	}
	return strings.TrimRight(b.String(), "\n"), out, nil
}

// cmp is v, or def when v is zero.
func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
