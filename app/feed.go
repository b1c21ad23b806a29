package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// EventKinds are the kinds of event a covers list may name, in the order it
// names them. Each is an entity_type of the events it stands for; link and
// verification events are filed on their task and come with "task".
var EventKinds = []string{"project", "task", "document", "comment"}

// itemKinds are the kinds read with item:read; "project" needs project:read.
var itemKinds = []string{"task", "document", "comment"}

// FeedQuery asks the change feed or the journal for one page of a
// workspace's events.
type FeedQuery struct {
	Workspace string
	// Since (feed only) is a seq to read forward from, inclusive. Without
	// it the feed gives its newest events.
	Since *int64
	// Actor is "me" (this credential) or a username (any credential of
	// that account); empty is anybody.
	Actor     string
	CreatedAt TimeFilter
	// Oldest (journal only) reads oldest first; the journal is newest first otherwise.
	Oldest       bool
	Limit        int
	Cursor       string
	IncludeTotal bool
	// Actions (feed only) narrows to these actions, separated by commas;
	// kind.* is every action of a kind (feed_filter.go).
	Actions string
	// Project (feed only) narrows to the events of this project (a key or
	// id) and the projects under it.
	Project string
	// Loc says where the parameters were written, for a refusal.
	Loc Locator
	// WaitSeconds (feed only, with Since) holds an empty answer open until
	// an event the caller may see commits or that many seconds pass
	// (feed_wait.go).
	WaitSeconds *int
}

// expensive reports whether reading the feed may scan far: a filter the
// events are not ordered by (a sparse one walks many events to fill a
// page), a count, or a page larger than the default.
func (q FeedQuery) expensive(limit int, l Limits) bool {
	c := q.CreatedAt
	return q.Actor != "" || q.Actions != "" || q.Project != "" || c.GT != "" || c.GTE != "" || c.LT != "" || c.LTE != "" || q.IncludeTotal || limit > l.DefaultPageSize
}

// TimeRange bounds an instant; nil bounds are open.
type TimeRange struct {
	GT, GTE, LT, LTE *time.Time
}

// EventFilter is what the store needs to read a page of a workspace's
// events: who may see what is already worked out into sets of project ids,
// so the whole filter runs in SQL and a page costs a fixed number of
// statements.
type EventFilter struct {
	WorkspaceID string
	// WorkspaceLevel admits events that belong to no project.
	WorkspaceLevel bool
	// ProjectIDs admits "project" events of these projects (a JSON array).
	ProjectIDs string
	// ItemProjectIDs admits events of ItemKinds filed in these projects
	// (a JSON array); a link event also needs its far end filed in one.
	ItemProjectIDs string
	ItemKinds      string // JSON array of entity types
	// ActorTokenID, else ActorUserID, narrows to one actor; ActorNoToken
	// with ActorUserID means the account acting without a credential.
	ActorTokenID string
	ActorUserID  string
	ActorNoToken bool
	CreatedAt    TimeRange
	// Actions, when set, admits only these actions (a JSON array).
	Actions string
	// InProjects, when set, admits only events filed in these projects (a
	// JSON array), on top of what the caller may read.
	InProjects string
	AfterSeq   int64 // seq > AfterSeq
	BeforeSeq  int64 // seq < BeforeSeq; 0 is no bound
	Descending bool
	Limit      int
	// Named joins the actor's username and a comment's current body.
	Named bool

	// redact blanks what an event may not say to this reader.
	redact func(*Event)
	// walkAt is the moment its relative bounds were resolved at, carried in
	// the cursor (see walkStart).
	walkAt time.Time
}

// EventEntry is an event as the journal reads it: with the actor's
// username and, for a comment event, the comment's current body.
type EventEntry struct {
	Event
	Actor string
	Said  *string
}

type feedTx interface {
	// FeedEvents reads one page of a workspace's events under f.
	FeedEvents(ctx context.Context, f EventFilter) ([]EventEntry, error)
	// CountFeedEvents counts every event f admits, ignoring its seq bounds and limit.
	CountFeedEvents(ctx context.Context, f EventFilter) (int, error)
}

// FeedPage is one page of the change feed.
type FeedPage struct {
	Covers []string
	Items  []Event
	Page   Page

	// shared is set on a page waiters share (feed_wait.go); its Items are
	// then read by all of them and written by none.
	shared *sharedRead
}

// Changes reads the change feed: a workspace's events the caller may see.
// With Since it reads forward from that seq (inclusive), oldest first, and
// next_cursor continues forward. Without it the page is the newest events,
// still oldest first, and next_cursor reaches back to the page before.
func (s *Service) Changes(ctx context.Context, a Actor, q FeedQuery) (FeedPage, error) {
	if q.WaitSeconds != nil {
		return s.waitChanges(ctx, a, q)
	}
	return s.changes(ctx, a, q)
}

func (s *Service) changes(ctx context.Context, a Actor, q FeedQuery) (FeedPage, error) {
	if q.Since != nil && *q.Since < 0 {
		return FeedPage{}, Invalidf("query.since", "since is a seq, 0 or more")
	}
	var out FeedPage
	err := s.feedView(ctx, a, q, func(tx Tx, limit int, f EventFilter, sig string, covers []string) error {
		forward := q.Since != nil
		if forward {
			sig += "|since " + strconv.FormatInt(*q.Since, 10)
		}
		cur, err := decodeCursor(q.Cursor, "changes", sig)
		if err != nil {
			return err
		}
		switch {
		case forward && q.Cursor != "":
			f.AfterSeq = cur.Seq
		case forward:
			f.AfterSeq = max(*q.Since-1, 0)
		default:
			f.Descending, f.BeforeSeq = true, cur.Seq
		}
		es, page, err := eventPage(ctx, tx, f, "changes", sig, limit)
		if err != nil {
			return err
		}
		out = FeedPage{Covers: covers, Items: []Event{}, Page: page}
		for _, e := range es {
			out.Items = append(out.Items, e.Event)
		}
		if !forward {
			for i, j := 0, len(out.Items)-1; i < j; i, j = i+1, j-1 {
				out.Items[i], out.Items[j] = out.Items[j], out.Items[i]
			}
		}
		out.Page.Total, err = feedTotal(ctx, tx, f, q, forward)
		return err
	})
	return out, err
}

// eventPage reads up to limit events under f, and one more to learn whether
// the listing goes on; the cursor resumes after the last one returned.
func eventPage(ctx context.Context, tx Tx, f EventFilter, listing, sig string, limit int) ([]EventEntry, Page, error) {
	f.Limit = limit + 1
	es, err := tx.FeedEvents(ctx, f)
	if err != nil {
		return nil, Page{}, err
	}
	for i := range es {
		f.redact(&es[i].Event)
	}
	p := Page{Limit: limit}
	if len(es) > limit {
		es = es[:limit]
		p.HasMore = true
		p.NextCursor = encodeCursor(listing, sig, cursorKey{Seq: es[limit-1].Seq, At: walkMark(f.walkAt)})
	}
	return es, p, nil
}

func feedTotal(ctx context.Context, tx Tx, f EventFilter, q FeedQuery, forward bool) (*int, error) {
	if !q.IncludeTotal {
		return nil, nil
	}
	f.AfterSeq, f.BeforeSeq = 0, 0
	if forward {
		f.AfterSeq = max(*q.Since-1, 0)
	}
	n, err := tx.CountFeedEvents(ctx, f)
	return &n, err
}

// JournalEntry is an event read for people: who did it by name, what a
// comment said, and each change as a before and after.
type JournalEntry struct {
	Event
	Actor   string
	Said    *string
	Changed []Change
}

// Change is one field an event changed.
type Change struct {
	Field  string
	Before *string
	After  *string
	Said   string
}

// JournalPage is one page of the journal.
type JournalPage struct {
	Covers []string
	Items  []JournalEntry
	Page   Page
}

// Journal reads the same events as the change feed, most recent first (or
// oldest first with Oldest), joined to actor names and comment bodies, with
// each change spelled out.
func (s *Service) Journal(ctx context.Context, a Actor, q FeedQuery) (JournalPage, error) {
	var out JournalPage
	err := s.feedView(ctx, a, q, func(tx Tx, limit int, f EventFilter, sig string, covers []string) error {
		sig += "|oldest " + strconv.FormatBool(q.Oldest)
		cur, err := decodeCursor(q.Cursor, "journal", sig)
		if err != nil {
			return err
		}
		if q.Oldest {
			f.AfterSeq = cur.Seq
		} else {
			f.Descending, f.BeforeSeq = true, cur.Seq
		}
		f.Named = true
		es, page, err := eventPage(ctx, tx, f, "journal", sig, limit)
		if err != nil {
			return err
		}
		out = JournalPage{Covers: covers, Items: []JournalEntry{}, Page: page}
		for _, e := range es {
			out.Items = append(out.Items, JournalEntry{Event: e.Event, Actor: e.Actor, Said: e.Said, Changed: changed(e.Changes)})
		}
		out.Page.Total, err = feedTotal(ctx, tx, f, q, false)
		return err
	})
	return out, err
}

// feedView runs read in one view under the feed's read budget, with the
// page's limit and what feedFilter works out for the caller.
func (s *Service) feedView(ctx context.Context, a Actor, q FeedQuery, read func(tx Tx, limit int, f EventFilter, sig string, covers []string) error) error {
	limit, err := s.pageLimit(q.Limit)
	if err != nil {
		return err
	}
	return s.view(ctx, q.expensive(limit, s.limits), func(tx Tx) error {
		f, sig, covers, err := feedFilter(ctx, tx, a, q)
		if err != nil {
			return err
		}
		return read(tx, limit, f, sig, covers)
	})
}

// feedFilter works out, once per request, what the caller may see of a
// workspace's events: the filter, a signature of the query for cursors,
// and the kinds covered.
func feedFilter(ctx context.Context, tx Tx, a Actor, q FeedQuery) (EventFilter, string, []string, error) {
	sc, err := inWorkspace(ctx, tx, a, q.Workspace)
	if err != nil {
		return EventFilter{}, "", nil, err
	}
	z, err := readerZone(ctx, tx, a.User, &sc.ws.Workspace)
	if err != nil {
		return EventFilter{}, "", nil, err
	}
	f := EventFilter{WorkspaceID: sc.ws.Workspace.ID, WorkspaceLevel: sc.ws.can(PermWorkspaceRead), redact: sc.redact,
		walkAt: walkStart(q.Cursor, tx.Now())}
	if f.CreatedAt, err = q.CreatedAt.resolve(z, f.walkAt); err != nil {
		return EventFilter{}, "", nil, err
	}
	switch q.Actor {
	case "":
	case "me":
		f.ActorUserID = a.User.ID
		if f.ActorTokenID = a.tokenID(); f.ActorTokenID == "" {
			f.ActorNoToken = true
		}
	default:
		u, err := tx.UserByName(ctx, q.Actor)
		if err != nil {
			return EventFilter{}, "", nil, bodyRef(err, "query.actor", "no account is called "+strconv.Quote(q.Actor)+"; actor is me or a username")
		}
		f.ActorUserID = u.ID
	}
	projects, items := []string{}, []string{}
	for _, n := range sc.ordered {
		if !n.sight || !n.inRead || !has(n.Perms, PermProjectRead) {
			continue
		}
		projects = append(projects, n.ID)
		if has(n.Perms, PermItemRead) {
			items = append(items, n.ID)
		}
	}
	covers := sc.covers()
	f.ProjectIDs, f.ItemProjectIDs, f.ItemKinds = jsonList(projects), jsonList(items), jsonList(itemKinds)
	narrowed, err := feedNarrowing(sc, q, &f)
	if err != nil {
		return EventFilter{}, "", nil, err
	}
	sig := fmt.Sprintf("%s|actor %s|created %s", f.WorkspaceID, q.Actor, q.CreatedAt) + narrowed
	return f, sig, covers, nil
}

// covers lists the kinds of event the caller may read in this workspace,
// from the permissions its workspace role, or a project role, grants once
// narrowed by the credential. Items are read inside projects, so they need
// project:read as well as item:read.
func (sc *scope) covers() []string {
	grants := func(perm string) bool {
		if sc.ws.can(perm) {
			return true
		}
		for _, n := range sc.ordered {
			if n.sight && n.inRead && has(n.Perms, perm) {
				return true
			}
		}
		return false
	}
	out := []string{}
	if grants(PermProjectRead) {
		out = append(out, "project")
		if grants(PermItemRead) {
			out = append(out, itemKinds...)
		}
	}
	return out
}

func jsonList(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}
