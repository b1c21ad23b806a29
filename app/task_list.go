package app

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// TaskQuery is what the store needs to read tasks for one reader: the
// reader's readable projects (every query filters through them), the
// filters, the order and the keyset position.
type TaskQuery struct {
	WorkspaceID string
	Readable    string // JSON array of the project ids whose items the reader may read
	AllReadable bool   // the reader may read every project of the workspace: no project filter is needed
	ViewerID    string
	Now         time.Time

	IDs      []string
	Ref      int64 // one task by its ref in the workspace
	Deleted  *bool // nil or false: live only; true: the trash only
	AnyState *bool // true: live and trashed alike (Deleted is ignored)
	ItemFilter
	AssigneeID  string
	ClaimedByID string
	ParentID    string
	Subtree     bool
	DueBefore   *time.Time
	DueAfter    *time.Time
	OpenOnly    bool
	Deferred    string
	Ready       bool
	ToActOn     bool
	Conds       []TaskCond // the field filters (task_filter.go)
	Order       []OrderField
	After       *TaskCursor
	Limit       int
	// SkipSubCounts leaves the subtask counts out (0): for a request on a
	// task whose subtasks a job on its subtree is about to hide, which
	// answers none (keepJob), and would otherwise count every child of a
	// subtree too large for one transaction, in the writer.
	SkipSubCounts bool
	// RankNewest, when positive, caps a ranking by a key the store computes
	// (relevance, priority_score) of a text match to the newest RankNewest
	// matches the other filters keep; 0 ranks every match.
	RankNewest int
}

// OrderField is one sort key of a listing.
type OrderField struct {
	Field string
	Desc  bool
}

// TaskCursor is the keyset position after the last row of a page.
type TaskCursor struct {
	Values []any
	Seq    int64
}

// TaskListQuery is GET /v1/tasks.
type TaskListQuery struct {
	Workspace        string
	Project          string
	Status           string
	Tag              string
	StatusCategory   string
	Type             string
	Assignee         string
	ClaimedBy        string
	Parent           string
	Subtree          bool
	Q                string
	DueBefore        string // a filter value (docs/time.md): an instant, a date or a relative phrase
	DueAfter         string
	IncludeCompleted *bool
	Deferred         string
	Deleted          bool
	Ready            bool
	ToActOn          bool
	Order            string
	Limit            int
	Cursor           string
	IncludeTotal     bool
	GroupBy          string
	GroupLimit       int
	IncludeLinks     bool
	// View names a saved view (its id or name) whose filters and order
	// the listing takes; it then takes none of its own.
	View   string
	Filter map[string]string // field filters by key: "due_at.gte", "assignee.in", "under" (task_filter.go)
	// Loc is where each parameter was written, for the errors that name
	// one; nil is the query string of GET /v1/tasks.
	Loc Locator
}

// TaskGroup is one group of a grouped listing.
type TaskGroup struct {
	Key   string
	Items []Task
	Page  Page
}

// TaskList is a task listing: a page, or groups when grouped.
type TaskList struct {
	Items  []Task
	Page   Page
	Groups []TaskGroup
	Links  []PageLink
}

// PageLink is one link among the tasks of a page, reported once.
type PageLink struct {
	ID       string
	LinkType string
	Label    string
	Source   int64
	Target   int64
}

// parseOrder reads a task listing's order.
func parseOrder(s string) ([]OrderField, error) {
	return parseOrderOf(s, TaskOrderFields, "query.order")
}

// parseOrderOf reads "a,-b" into order fields, refusing names not in fields
// as the parameter written at loc.
func parseOrderOf(s string, fields []string, loc string) ([]OrderField, error) {
	if strings.TrimSpace(s) == "" {
		return []OrderField{{Field: "ref"}}, nil
	}
	var out []OrderField
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		f := OrderField{Field: strings.TrimPrefix(part, "-"), Desc: strings.HasPrefix(part, "-")}
		if !has(fields, f.Field) {
			return nil, Invalidf(loc, "cannot order by %q; order by %s, '-' first for descending", f.Field, joinWords(fields))
		}
		if seen[f.Field] {
			return nil, Invalidf(loc, "%q appears twice", f.Field)
		}
		seen[f.Field] = true
		out = append(out, f)
	}
	return out, nil
}

// searchOrder settles the order of a listing that may search: with words to
// match and no order asked for, the best match comes first; relevance
// without words to match has nothing to rank by (the order written at loc).
func searchOrder(order []OrderField, asked, match, loc string) ([]OrderField, error) {
	ranked := slices.ContainsFunc(order, func(f OrderField) bool { return f.Field == "relevance" })
	switch {
	case ranked && match == "":
		return nil, Invalidf(loc, "relevance ranks a search: it needs words in q")
	case strings.TrimSpace(asked) == "" && match != "":
		return []OrderField{{Field: "relevance", Desc: true}}, nil
	}
	return order, nil
}

// fingerprint is the canonical text of a listing's filters and order, so a
// cursor from another query is refused.
func (q TaskListQuery) fingerprint(category string) string {
	ic := ""
	if q.IncludeCompleted != nil {
		ic = fmt.Sprint(*q.IncludeCompleted)
	}
	return strings.Join([]string{q.Workspace, q.Project, q.Status, strings.ToLower(q.Tag), category, q.Type, q.Assignee,
		q.ClaimedBy, q.Parent, fmt.Sprint(q.Subtree), q.Q, q.DueBefore, q.DueAfter, ic, q.Deferred,
		fmt.Sprint(q.Deleted), fmt.Sprint(q.Ready), fmt.Sprint(q.ToActOn), q.Order, fieldFilterPrint(q.Filter)}, "\x1f")
}

func (q TaskListQuery) validate() error {
	errs := []error{checkFilterKeys(q.Filter, q.Loc)}
	if q.StatusCategory != "" && !has(StatusCategories, q.StatusCategory) {
		errs = append(errs, Invalidf(q.Loc.at("status_category"), "status_category is one of %s", joinWords(StatusCategories)))
	}
	if q.Deferred != "" && !has([]string{"include", "exclude", "only"}, q.Deferred) {
		errs = append(errs, Invalidf(q.Loc.at("deferred"), "deferred is include, exclude or only"))
	}
	if q.GroupBy != "" && q.GroupBy != "status_category" {
		errs = append(errs, Invalidf(q.Loc.at("group_by"), "only status_category is supported"))
	}
	if q.Subtree && q.Parent == "" {
		errs = append(errs, Invalidf(q.Loc.at("subtree"), "subtree needs parent"))
	}
	if q.GroupBy != "" && q.Cursor != "" {
		// Ignoring it would answer the first page again, for ever.
		errs = append(errs, Invalidf(q.Loc.at("cursor"), "a grouped listing starts over; continue one group with status_category=<its key> and its next_cursor"))
	}
	return joinErrors(errs...)
}

// taskQuery fills the reader-specific part of a store query.
func (sc *scope) taskQuery(q TaskQuery) TaskQuery {
	q.WorkspaceID = sc.ws.Workspace.ID
	q.Readable, q.AllReadable = sc.readJSON, sc.readsAll
	q.ViewerID = sc.acc.actor.User.ID
	return q
}

// Tasks answers GET /v1/tasks: one page (or one page per status category),
// filtered through what the caller may read, in a fixed number of queries
// whatever the page size.
func (s *Service) Tasks(ctx context.Context, a Actor, in TaskListQuery) (TaskList, error) {
	limit, err := s.pageLimit(in.Limit)
	if err != nil {
		return TaskList{}, err
	}
	var out TaskList
	// A view's words are known only once it is read: listing through one
	// counts as expensive, as a search does.
	expensive := in.Q != "" || in.View != "" || limit > s.limits.DefaultPageSize || in.IncludeTotal || in.GroupBy != ""
	err = s.view(ctx, expensive, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) (err error) {
		if in.View != "" {
			if in, err = throughView(ctx, tx, sc, in); err != nil {
				return err
			}
		}
		base, err := s.listingQuery(ctx, tx, sc, in)
		if err != nil {
			return err
		}
		if in.GroupBy != "" {
			return s.groupedTasks(ctx, tx, sc, in, base, &out)
		}
		base.Limit = limit
		if out.Items, out.Page, err = taskPage(ctx, tx, sc, base, in, in.StatusCategory, in.Cursor, in.IncludeTotal); err != nil {
			return err
		}
		if in.IncludeLinks {
			out.Links, err = pageLinks(ctx, tx, sc, out.Items)
		}
		return err
	}))
	return out, err
}

// listingQuery checks a listing's parameters and resolves its filters and
// order to the store's query, through the caller's scope.
func (s *Service) listingQuery(ctx context.Context, tx Tx, sc *scope, in TaskListQuery) (TaskQuery, error) {
	if err := in.validate(); err != nil {
		return TaskQuery{}, err
	}
	order, err := parseOrderOf(in.Order, TaskOrderFields, in.Loc.at("order"))
	if err != nil {
		return TaskQuery{}, err
	}
	base, err := s.taskFilter(ctx, tx, sc, in)
	if err != nil {
		return TaskQuery{}, err
	}
	if base.Order, err = searchOrder(order, in.Order, base.Match, in.Loc.at("order")); err != nil {
		return TaskQuery{}, err
	}
	base.Now = tx.Now()
	base.DueBefore, base.DueAfter, err = dueBounds(ctx, tx, sc, in)
	return base, err
}

// throughView is the listing in asks for through a saved view: the view's
// filters and order with in's paging.
func throughView(ctx context.Context, tx Tx, sc *scope, in TaskListQuery) (TaskListQuery, error) {
	if len(ViewParams(in)) > 0 {
		return in, Invalidf(in.Loc.at("view"), "a view brings its own filters and order; list through it with paging alone, or give the filters without it")
	}
	v, err := viewIn(ctx, tx, sc, in.View)
	if err != nil {
		return in, err
	}
	out := v.Query
	out.Workspace, out.Limit, out.Cursor, out.IncludeTotal = in.Workspace, in.Limit, in.Cursor, in.IncludeTotal
	out.GroupBy, out.GroupLimit, out.IncludeLinks, out.Deleted = in.GroupBy, in.GroupLimit, in.IncludeLinks, in.Deleted
	out.Loc = in.Loc
	return out, nil
}

func (s *Service) groupedTasks(ctx context.Context, tx Tx, sc *scope, in TaskListQuery, base TaskQuery, out *TaskList) error {
	gl := in.GroupLimit
	switch {
	case gl == 0:
		gl = s.limits.GroupLimitDefault
	case gl < 1:
		return Invalidf(in.Loc.at("group_limit"), "group_limit is at least 1")
	case gl > s.limits.GroupLimitMax:
		gl = s.limits.GroupLimitMax
	}
	base.Limit = gl
	base.OpenOnly = false
	for _, cat := range StatusCategories {
		q := base
		q.Categories = []string{cat}
		if in.StatusCategory != "" && in.StatusCategory != cat {
			q.Categories = []string{}
		}
		items, page, err := taskPage(ctx, tx, sc, q, in, cat, "", in.IncludeTotal)
		if err != nil {
			return err
		}
		out.Groups = append(out.Groups, TaskGroup{Key: cat, Items: items, Page: page})
	}
	return nil
}

// taskPage reads one page: limit+1 rows tell whether there is more.
func taskPage(ctx context.Context, tx Tx, sc *scope, q TaskQuery, in TaskListQuery, category, cursor string, total bool) ([]Task, Page, error) {
	fp := in.fingerprint(category)
	var err error
	if q.After, err = keysetAfter(cursor, "tasks", fp, sortKinds(TaskSortKeys, q.Order)); err != nil {
		return nil, Page{}, err
	}
	limit := q.Limit
	q.Limit++
	items, err := sc.tasks(ctx, tx, q)
	if err != nil {
		return nil, Page{}, err
	}
	items, page := cutPage(items, limit, "tasks", fp, func(last Task) cursorKey {
		return cursorKey{Seq: last.Seq, Values: sortValues(TaskSortKeys, last, q.Order), At: walkMark(walkStart(cursor, q.Now))}
	})
	if total {
		q.After, q.Limit = nil, 0
		n, err := tx.CountTasks(ctx, q)
		if err != nil {
			return nil, Page{}, err
		}
		page.Total = &n
	}
	if items == nil {
		items = []Task{}
	}
	return items, page, nil
}

// taskFilter resolves the listing's names (projects, statuses, accounts,
// tags) to ids, through the caller's scope.
func (s *Service) taskFilter(ctx context.Context, tx Tx, sc *scope, in TaskListQuery) (TaskQuery, error) {
	q := sc.taskQuery(TaskQuery{Deferred: in.Deferred,
		Ready: in.Ready, ToActOn: in.ToActOn, Subtree: in.Subtree})
	if in.Deleted {
		yes := true
		q.Deleted = &yes
	}
	if in.Project != "" {
		ids, err := readableSubtree(sc, in.Project, in.Loc.at("project"))
		if err != nil {
			return q, err
		}
		q.ProjectIDs = ids
	}
	var err error
	finishedStatus := false
	if in.Status != "" {
		st, err := statusFor(ctx, tx, sc.ws.Workspace.ID, "task", in.Status, in.Loc.at("status"))
		if err != nil {
			return q, err
		}
		q.StatusIDs = []string{st.ID}
		finishedStatus = isFinished(st.Category)
	}
	if in.Type != "" {
		it, err := itemTypeFor(ctx, tx, sc.ws.Workspace.ID, "task", in.Type, in.Loc.at("type"))
		if err != nil {
			return q, err
		}
		q.TypeIDs = []string{it.ID}
	}
	if in.StatusCategory != "" {
		q.Categories = []string{in.StatusCategory}
	}
	// Naming a finished category, or a status in one, reaches finished work
	// without include_completed.
	finishedNamed := isFinished(in.StatusCategory) || finishedStatus
	q.OpenOnly = !finishedNamed && (in.IncludeCompleted == nil || !*in.IncludeCompleted) && !in.Deleted
	if in.Ready {
		q.OpenOnly = true
	}
	if in.Tag != "" {
		if err := q.requireTag(ctx, tx, sc, in.Tag); err != nil {
			return q, err
		}
	}
	if q.AssigneeID, err = accountFilter(ctx, tx, sc, in.Assignee, in.Loc.at("assignee")); err != nil {
		return q, err
	}
	if q.ClaimedByID, err = accountFilter(ctx, tx, sc, in.ClaimedBy, in.Loc.at("claimed_by")); err != nil {
		return q, err
	}
	if in.Parent != "" {
		p, err := findTaskIn(ctx, tx, sc, in.Parent)
		if err != nil {
			return q, bodyRef(err, in.Loc.at("parent"), "no such task: "+in.Parent)
		}
		q.ParentID = p.ID
	}
	if q.Conds, err = fieldFilters(ctx, tx, sc, in.Filter, in.Loc, walkStart(in.Cursor, tx.Now())); err != nil {
		return q, err
	}
	q.OpenOnly = q.OpenOnly && (in.Ready || !reachesFinished(q.Conds))
	return q, s.taskSearch(ctx, tx, sc, ParseSearch(in.Q), &q, in.Loc.at("q"))
}

// dueBounds resolves due_before and due_after in the reader's zone at the
// walk's moment. A whole day compares as its midnight.
func dueBounds(ctx context.Context, tx Tx, sc *scope, in TaskListQuery) (*time.Time, *time.Time, error) {
	if in.DueBefore == "" && in.DueAfter == "" {
		return nil, nil, nil
	}
	z, err := readerZone(ctx, tx, sc.acc.actor.User, &sc.ws.Workspace)
	if err != nil {
		return nil, nil, err
	}
	at := walkStart(in.Cursor, tx.Now())
	before, err1 := resolveTime(in.Loc.at("due_before"), in.DueBefore, z, at, false)
	after, err2 := resolveTime(in.Loc.at("due_after"), in.DueAfter, z, at, false)
	return before, after, joinErrors(err1, err2)
}

// accountFilter resolves "me", a username or an id.
func accountFilter(ctx context.Context, tx Tx, sc *scope, name, loc string) (string, error) {
	switch name {
	case "":
		return "", nil
	case "me":
		return sc.acc.actor.User.ID, nil
	}
	u, err := tx.UserByName(ctx, name)
	if CodeOf(err) == CodeNotFound {
		u, err = tx.UserByID(ctx, name)
	}
	if err != nil {
		return "", bodyRef(err, loc, "no such account: "+name)
	}
	return u.ID, nil
}

// pageLinks reports the links among the page's items, once each.
func pageLinks(ctx context.Context, tx Tx, sc *scope, items []Task) ([]PageLink, error) {
	ids := make([]string, len(items))
	refs := map[string]int64{}
	for i, t := range items {
		ids[i] = t.ID
		refs[t.ID] = t.Ref
	}
	ls, err := tx.LinksAmong(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := []PageLink{}
	for _, l := range ls {
		out = append(out, PageLink{ID: l.ID, LinkType: l.Type.Key, Label: l.Type.Title, Source: refs[l.SourceID], Target: refs[l.TargetID]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
