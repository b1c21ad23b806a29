package app

import (
	"context"
	"fmt"
	"strings"
)

// DocumentQuery is what the store needs to read documents for one reader:
// the reader's readable projects (every query filters through them), the
// filters, the order and the keyset position.
type DocumentQuery struct {
	WorkspaceID string
	Readable    string // JSON array of the project ids whose items the reader may read

	IDs      []string
	Ref      int64
	Deleted  *bool // nil or false: live only; true: the trash only
	AnyState *bool // true: live and trashed alike (Deleted is ignored)
	ItemFilter
	ParentID string
	Subtree  bool
	Order    []OrderField
	After    *TaskCursor
	Limit    int
}

// DocumentListQuery is GET /v1/documents.
type DocumentListQuery struct {
	Workspace      string
	Project        string
	Type           string
	Status         string
	StatusCategory string
	Tag            string
	Parent         string
	Subtree        bool
	Q              string
	Deleted        bool
	Order          string
	Limit          int
	Cursor         string
	IncludeTotal   bool
}

// DocumentList is one page of documents.
type DocumentList struct {
	Items []Document
	Page  Page
}

func (q DocumentListQuery) fingerprint() string {
	return strings.Join([]string{q.Workspace, q.Project, q.Type, q.Status, q.StatusCategory, strings.ToLower(q.Tag), q.Parent,
		fmt.Sprint(q.Subtree), q.Q, fmt.Sprint(q.Deleted), q.Order}, "\x1f")
}

func (q DocumentListQuery) validate() error {
	var errs []error
	if q.StatusCategory != "" && !has(StatusCategories, q.StatusCategory) {
		errs = append(errs, Invalidf("query.status_category", "status_category is one of %s", joinWords(StatusCategories)))
	}
	if q.Subtree && q.Parent == "" {
		errs = append(errs, Invalidf("query.subtree", "subtree needs parent"))
	}
	return joinErrors(errs...)
}

// Documents answers GET /v1/documents: one page filtered through what the
// caller may read, in a fixed number of queries whatever the page size.
func (s *Service) Documents(ctx context.Context, a Actor, in DocumentListQuery) (DocumentList, error) {
	if err := in.validate(); err != nil {
		return DocumentList{}, err
	}
	order, err := parseOrderOf(in.Order, DocumentOrderFields, "query.order")
	if err != nil {
		return DocumentList{}, err
	}
	limit, err := s.pageLimit(in.Limit)
	if err != nil {
		return DocumentList{}, err
	}
	var out DocumentList
	expensive := in.Q != "" || limit > s.limits.DefaultPageSize || in.IncludeTotal
	err = s.view(ctx, expensive, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) (err error) {
		q, err := documentFilter(ctx, tx, sc, in)
		if err != nil {
			return err
		}
		if order, err = searchOrder(order, in.Order, q.Match, "query.order"); err != nil {
			return err
		}
		q.Order, q.Limit = order, limit
		fp := in.fingerprint()
		if q.After, err = keysetAfter(in.Cursor, "documents", fp, sortKinds(DocumentSortKeys, order)); err != nil {
			return err
		}
		q.Limit++
		items, err := sc.documents(ctx, tx, q)
		if err != nil {
			return err
		}
		items, out.Page = cutPage(items, limit, "documents", fp, func(last Document) cursorKey {
			return cursorKey{Seq: last.Seq, Values: sortValues(DocumentSortKeys, last, order)}
		})
		if out.Items = items; items == nil {
			out.Items = []Document{}
		}
		if in.IncludeTotal {
			q.After, q.Limit = nil, 0
			q.WorkspaceID, q.Readable = sc.ws.Workspace.ID, sc.readJSON
			n, err := tx.CountDocuments(ctx, q)
			if err != nil {
				return err
			}
			out.Page.Total = &n
		}
		return nil
	}))
	return out, err
}

// foldASCII lower-cases like SQLite's lower(): ASCII letters only.
func foldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// documentFilter resolves the listing's names (projects, statuses, types,
// tags, parent) to ids, through the caller's scope.
func documentFilter(ctx context.Context, tx Tx, sc *scope, in DocumentListQuery) (DocumentQuery, error) {
	q := DocumentQuery{Subtree: in.Subtree}
	if in.Deleted {
		yes := true
		q.Deleted = &yes
	}
	if in.Project != "" {
		n, err := sc.project(in.Project)
		if err != nil {
			return q, bodyRef(err, "query.project", "no such project: "+in.Project)
		}
		q.ProjectIDs = readableUnder(n)
	}
	if in.Status != "" {
		st, err := statusFor(ctx, tx, sc.ws.Workspace.ID, "document", in.Status, "query.status")
		if err != nil {
			return q, err
		}
		q.StatusIDs = []string{st.ID}
	}
	if in.Type != "" {
		it, err := itemTypeFor(ctx, tx, sc.ws.Workspace.ID, "document", in.Type, "query.type")
		if err != nil {
			return q, err
		}
		q.TypeIDs = []string{it.ID}
	}
	if in.StatusCategory != "" {
		q.Categories = []string{in.StatusCategory}
	}
	if in.Tag != "" {
		if err := q.requireTag(ctx, tx, sc, in.Tag); err != nil {
			return q, err
		}
	}
	if in.Parent != "" {
		p, err := findDocumentIn(ctx, tx, sc, in.Parent)
		if err != nil {
			return q, bodyRef(err, "query.parent", "no such document: "+in.Parent)
		}
		q.ParentID = p.ID
	}
	_, _, err := applySearch(ctx, tx, sc, "document", ParseSearch(in.Q), &q.ItemFilter, "query.q")
	return q, err
}

// readableUnder lists a project and the projects under it whose items the
// caller may read; the project alone when none is (so nothing matches).
func readableUnder(n *projectNode) []string {
	var ids []string
	for _, d := range n.subtree() {
		if d.canReadItems() {
			ids = append(ids, d.ID)
		}
	}
	if len(ids) == 0 {
		ids = []string{n.ID}
	}
	return ids
}

// tagFilter resolves a tag filter: its id, or none (a tag nobody has used
// matches nothing).
func tagFilter(ctx context.Context, tx Tx, sc *scope, name string) (string, bool, error) {
	if name == "" {
		return "", false, nil
	}
	t, err := tx.TagByName(ctx, sc.ws.Workspace.ID, strings.TrimPrefix(name, "#"))
	if CodeOf(err) == CodeNotFound {
		return "", true, nil
	}
	return t.ID, false, err
}
