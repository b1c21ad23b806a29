package app

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DavCollection is a project as a CalDAV task collection: one for each
// project the account may read the tasks of; a subproject is its own.
type DavCollection struct {
	ProjectID string
	Workspace string // the workspace's slug
	Key       string
	// Name is the name the account's task app chose for the collection
	// when it made it (MKCALENDAR), "" for none. The app goes on using
	// exactly that URL, so the collection is listed there for the account.
	Name     string
	Title    string
	Colour   string
	Writable bool  // the account may change tasks here
	Tag      int64 // the newest event's seq in the project: its getctag and sync-token
}

// DavRecord is what a CalDAV client wrote for a task that tend keeps for
// it as written: the resource name and UID it chose, its parent's UID and
// the lines tend does not model.
type DavRecord struct {
	TaskID      string
	WorkspaceID string
	Name        string
	UID         string
	ParentUID   string
	Extra       string
	Rev         int
}

// DavObject is a task as a CalDAV resource.
type DavObject struct {
	Task Task
	DavRecord
	// ParentUID (in DavRecord) is the parent's UID as the object names it:
	// the parent's own, else the one the client wrote for a parent tend has
	// not seen yet.
}

// ETag is the object's strong entity tag: it changes with every write of
// the task from any surface (its version) and every write of a CalDAV
// client (Rev), which may change only the lines tend keeps for it.
func (o DavObject) ETag() string { return fmt.Sprintf(`"%d-%d"`, o.Task.Version, o.Rev) }

// DavTime is a date or date-time a client wrote: At with its zone, or, when
// Floating (a DATE, or a DATE-TIME without TZID), At's wall clock, which
// means that time in the task's zone.
type DavTime struct {
	At       time.Time
	AllDay   bool
	Floating bool
}

// DavPut is a VTODO a client writes, read into tend's fields. A PUT
// replaces the whole resource, so a field it leaves out is cleared; only
// the status is kept when none is sent.
type DavPut struct {
	IfMatch     string // the ETag the client holds, "" for none
	IfNoneMatch bool   // If-None-Match: *, create only
	UID         string
	ParentUID   string
	Extra       string
	Title       string
	Description string
	Category    string // a status category; "" keeps the status
	Importance  *int
	Due         *DavTime
	Start       *DavTime
	Timezone    string
	Tags        []string
	Completed   *time.Time    // COMPLETED: when a completion the client made happened
	NextExtra   string        // Extra for the next occurrence, when the write completes this one
	RRule       string        // the RRULE's value as written, "" for none
	Overrides   []DavOverride // the VTODOs with a RECURRENCE-ID beside a master with an RRULE
	// Reminders are the VALARMs tend models. On a new task none takes the
	// person's default reminders, as on every surface; on a task tend holds
	// they replace those a VTODO can say (davReminders).
	Reminders []Reminder
}

// davTx is what CalDAV reads and writes beyond a task.
type davTx interface {
	// DavRecords reads the records of these tasks, by task id.
	DavRecords(ctx context.Context, taskIDs []string) (map[string]DavRecord, error)
	// DavRecordBy finds the record of a live task of a project by name,
	// or by uid when name is ""; not_found when there is none. Of two
	// tasks holding it (refiled into one project), the one created first.
	DavRecordBy(ctx context.Context, workspaceID, projectID, name, uid string) (DavRecord, error)
	// PutDavRecord writes a task's record, replacing the one it had.
	PutDavRecord(ctx context.Context, r DavRecord) error
	// ProjectTags is the newest event's seq of each project, by id.
	ProjectTags(ctx context.Context, projectIDs []string) (map[string]int64, error)
	// DavChildren lists a workspace's records that name uid as their
	// parent's.
	DavChildren(ctx context.Context, workspaceID, uid string) ([]DavRecord, error)
	// DavList finds the project of a list name an account's task app
	// chose, and the project's workspace: not_found when the account has
	// no such name, or its project is in the trash.
	DavList(ctx context.Context, userID, name string) (projectID, workspaceID string, err error)
	// DavListNames reads the names an account's task apps chose for these
	// projects, by project id.
	DavListNames(ctx context.Context, userID string, projectIDs []string) (map[string]string, error)
	// PutDavList names a project for an account's task apps, replacing
	// what the name named before.
	PutDavList(ctx context.Context, userID, name, projectID string) error
	// ProjectTasksSince lists the tasks events after seq since in a
	// project were about, and those moved out of it since, each once with
	// the newest such seq, in the order of those seqs.
	ProjectTasksSince(ctx context.Context, projectID string, since int64) ([]TaskSeq, error)
}

// davNameSuffix ends the resource name of a task no client named.
const davNameSuffix = ".ics"

// DavCollections lists the task collections of every workspace the account
// belongs to.
func (s *Service) DavCollections(ctx context.Context, a Actor) ([]DavCollection, error) {
	var out []DavCollection
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		for _, w := range acc.live() {
			sc, err := scopeOf(ctx, tx, acc, w)
			if err != nil {
				return err
			}
			cs, err := davCollections(ctx, tx, sc, sc.ordered)
			if err != nil {
				return err
			}
			out = append(out, cs...)
		}
		return nil
	}))
	return out, err
}

// davCollections is the collections of the nodes the account may read the
// tasks of, with their tags.
func davCollections(ctx context.Context, tx Tx, sc *scope, nodes []*projectNode) ([]DavCollection, error) {
	var out []DavCollection
	var ids []string
	for _, n := range nodes {
		if !n.canReadItems() {
			continue
		}
		ids = append(ids, n.ID)
		out = append(out, DavCollection{ProjectID: n.ID, Workspace: sc.ws.Workspace.Slug, Key: n.Key, Title: n.Title,
			Colour: n.Colour, Writable: n.canWriteItems()})
	}
	if len(ids) == 0 {
		return nil, nil
	}
	tags, err := tx.ProjectTags(ctx, ids)
	if err != nil {
		return nil, err
	}
	names, err := tx.DavListNames(ctx, sc.acc.actor.User.ID, ids)
	for i := range out {
		out[i].Tag, out[i].Name = tags[out[i].ProjectID], names[out[i].ProjectID]
	}
	return out, err
}

// DavObjects answers one collection and its objects: every live task filed
// in it when names is nil, else those of the names it holds.
func (s *Service) DavObjects(ctx context.Context, a Actor, workspace, key string, names []string) (DavCollection, []DavObject, error) {
	var col DavCollection
	var out []DavObject
	err := s.store.View(ctx, func(tx Tx) error {
		sc, n, err := davCollection(ctx, tx, a, workspace, key, &col)
		if err != nil {
			return err
		}
		q := TaskQuery{ItemFilter: ItemFilter{ProjectIDs: []string{n.ID}}, SkipSubCounts: true}
		if names != nil {
			if q.IDs, err = davIDs(ctx, tx, sc, n, names); err != nil || len(q.IDs) == 0 {
				return err
			}
		}
		ts, err := sc.tasks(ctx, tx, sc.taskQuery(q))
		if err != nil {
			return err
		}
		if out, err = davObjects(ctx, tx, ts); err != nil || names == nil {
			return err
		}
		out = davNamed(out, names)
		return nil
	})
	return col, out, err
}

// TaskSeq is a task and the seq of the newest event about it in a
// project.
type TaskSeq struct {
	ID  string `db:"id"`
	Seq int64  `db:"seq"`
}

// DavDelta is a sync-collection's answer: the objects changed, the names
// of those gone, and the token to send next.
type DavDelta struct {
	Collection DavCollection
	Changed    []DavObject
	Gone       []string
	// Token is the collection's tag, or, when the delta was cut at the
	// limit (Truncated), the seq it stops at, so the next one goes on
	// from there.
	Token     int64
	Truncated bool
}

// DavChanges answers a sync-collection (RFC 6578) of a collection from the
// seq since (its sync-token; 0 for all): the objects changed after it, and
// the names of those no longer in the collection (trashed, or gone), in
// the order they last changed, at most limit of them (0 for no limit) and
// the few more that changed at the same seq. A token from the future is
// refused as invalid.
func (s *Service) DavChanges(ctx context.Context, a Actor, workspace, key string, since int64, limit int) (DavDelta, error) {
	var d DavDelta
	err := s.store.View(ctx, func(tx Tx) error {
		sc, n, err := davCollection(ctx, tx, a, workspace, key, &d.Collection)
		if err != nil {
			return err
		}
		d.Token = d.Collection.Tag
		if since < 0 || since > d.Collection.Tag {
			return Errorf(CodeInvalid, "this sync-token was not issued here; sync again without one")
		}
		q := TaskQuery{ItemFilter: ItemFilter{ProjectIDs: []string{n.ID}}, SkipSubCounts: true}
		var seqs []TaskSeq
		if since > 0 {
			if seqs, err = tx.ProjectTasksSince(ctx, n.ID, since); err != nil || len(seqs) == 0 {
				return err
			}
			for _, ts := range seqs {
				q.IDs = append(q.IDs, ts.ID)
			}
		}
		ts, err := sc.tasks(ctx, tx, sc.taskQuery(q))
		if err != nil {
			return err
		}
		if since == 0 && limit > 0 && len(ts) > limit {
			// Only a first sync that is cut needs the order of every task.
			if seqs, err = tx.ProjectTasksSince(ctx, n.ID, 0); err != nil {
				return err
			}
		}
		live, order := davDeltaOrder(ts, seqs, since == 0)
		if limit > 0 && len(order) > limit {
			k := limit
			for k < len(order) && order[k].Seq == order[k-1].Seq {
				k++
			}
			if k < len(order) {
				order, d.Token, d.Truncated = order[:k], order[k-1].Seq, true
			}
		}
		var changed []Task
		var ids []string
		for _, e := range order {
			ids = append(ids, e.ID)
			if t, ok := live[e.ID]; ok {
				changed = append(changed, t)
			}
		}
		if d.Changed, err = davObjects(ctx, tx, changed); err != nil {
			return err
		}
		// changed holds the finished occurrences a series' next one took
		// over too (davCurrent): they are not served, and are not gone either.
		d.Gone, err = davGone(ctx, tx, ids, changed)
		return err
	})
	return d, err
}

// davDeltaOrder orders a delta's tasks by the seq they last changed at:
// the live ones (all of them, when only is set, as a first sync lists
// them) and those of seqs gone from the collection.
func davDeltaOrder(ts []Task, seqs []TaskSeq, only bool) (map[string]Task, []TaskSeq) {
	live := make(map[string]Task, len(ts))
	for _, t := range ts {
		live[t.ID] = t
	}
	if !only {
		return live, seqs
	}
	at := make(map[string]int64, len(seqs))
	for _, e := range seqs {
		at[e.ID] = e.Seq
	}
	order := make([]TaskSeq, 0, len(ts))
	for _, t := range ts {
		order = append(order, TaskSeq{ID: t.ID, Seq: at[t.ID]})
	}
	slices.SortStableFunc(order, func(a, b TaskSeq) int {
		return cmp.Or(cmp.Compare(a.Seq, b.Seq), strings.Compare(a.ID, b.ID))
	})
	return live, order
}

// davGone names the tasks of ids that are not among live: each by its
// record's name, else its id.
func davGone(ctx context.Context, tx Tx, ids []string, live []Task) ([]string, error) {
	here := make(map[string]bool, len(live))
	for _, t := range live {
		here[t.ID] = true
	}
	var missing []string
	for _, id := range ids {
		if !here[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	recs, err := tx.DavRecords(ctx, missing)
	out := make([]string, 0, len(missing))
	for _, id := range missing {
		if r, ok := recs[id]; ok {
			out = append(out, r.Name)
		} else {
			out = append(out, id+davNameSuffix)
		}
	}
	return out, err
}

// davCollection opens the scope of a collection and finds its project
// (davScope), and sets col to the collection.
func davCollection(ctx context.Context, tx Tx, a Actor, workspace, key string, col *DavCollection) (*scope, *projectNode, error) {
	sc, n, err := davScope(ctx, tx, a, workspace, key)
	if err != nil {
		return nil, nil, err
	}
	cs, err := davCollections(ctx, tx, sc, []*projectNode{n})
	if err != nil {
		return nil, nil, err
	}
	*col = cs[0]
	return sc, n, nil
}

// davScope opens the scope of a collection and finds its project, which
// the account may read the tasks of. A collection is addressed by its
// project's workspace and key, or, with workspace "", by the name the
// account's task app chose for it (dav_lists): a name is the account's
// own, so another's, like a project the account may no longer read, is
// not_found, as for one that does not exist.
func davScope(ctx context.Context, tx Tx, a Actor, workspace, key string) (*scope, *projectNode, error) {
	if workspace != "" {
		sc, err := inWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return nil, nil, err
		}
		n, err := davProject(sc, key)
		return sc, n, err
	}
	id, wsID, err := tx.DavList(ctx, a.User.ID, key)
	if err != nil {
		return nil, nil, notFoundAs(err, "project")
	}
	sc, err := inWorkspace(ctx, tx, a, wsID)
	if err != nil {
		return nil, nil, notFoundAs(err, "project")
	}
	n, err := sc.project(id)
	if err != nil || !n.canReadItems() {
		return nil, nil, NotFound("project")
	}
	return sc, n, nil
}

// davProject is the project of a collection, which the account may read
// the tasks of: not_found otherwise, as for a project that does not exist.
func davProject(sc *scope, key string) (*projectNode, error) {
	n, err := sc.project(key)
	if err != nil || n.ID == key || !n.canReadItems() {
		return nil, NotFound("project")
	}
	return n, nil
}

// davIDs resolves resource names in a collection to task ids: a name a
// client chose, or a task's id and davNameSuffix. A name nothing has is
// left out.
func davIDs(ctx context.Context, tx Tx, sc *scope, n *projectNode, names []string) ([]string, error) {
	var ids []string
	for _, name := range names {
		r, err := tx.DavRecordBy(ctx, sc.ws.Workspace.ID, n.ID, name, "")
		switch {
		case err == nil:
			ids = append(ids, r.TaskID)
		case CodeOf(err) != CodeNotFound:
			return nil, err
		default:
			if id, ok := strings.CutSuffix(name, davNameSuffix); ok && id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// davObjects pairs tasks with their records, and names each parent by its
// UID; a task without a record is named by its id. A finished occurrence
// whose resource the next one took over is left out (davCurrent).
func davObjects(ctx context.Context, tx Tx, ts []Task) ([]DavObject, error) {
	ts, err := davCurrent(ctx, tx, ts)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, 2*len(ts))
	for _, t := range ts {
		ids = append(ids, t.ID)
		if t.ParentID != "" {
			ids = append(ids, t.ParentID)
		}
	}
	recs, err := tx.DavRecords(ctx, ids)
	if err != nil {
		return nil, err
	}
	uid := func(id string) string {
		if r, ok := recs[id]; ok {
			return r.UID
		}
		return id
	}
	out := make([]DavObject, 0, len(ts))
	for _, t := range ts {
		r, ok := recs[t.ID]
		if !ok {
			r = DavRecord{TaskID: t.ID, WorkspaceID: t.WorkspaceID, Name: t.ID + davNameSuffix, UID: t.ID}
		}
		if t.ParentID != "" {
			r.ParentUID = uid(t.ParentID)
		}
		out = append(out, DavObject{Task: t, DavRecord: r})
	}
	return out, nil
}

// davNamed keeps the objects whose resource name is among names: a task a
// client named is not also found under its id and davNameSuffix.
func davNamed(os []DavObject, names []string) []DavObject {
	asked := make(map[string]bool, len(names))
	for _, name := range names {
		asked[name] = true
	}
	out := os[:0]
	for _, o := range os {
		if asked[o.Name] {
			out = append(out, o)
		}
	}
	return out
}

// davFind is the object a collection holds under name, with ok false when
// it holds none.
func davFind(ctx context.Context, tx Tx, sc *scope, n *projectNode, name string) (DavObject, bool, error) {
	ids, err := davIDs(ctx, tx, sc, n, []string{name})
	if err != nil || len(ids) == 0 {
		return DavObject{}, false, err
	}
	ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, ItemFilter: ItemFilter{ProjectIDs: []string{n.ID}}, Limit: 1}))
	if err != nil || len(ts) == 0 {
		return DavObject{}, false, err
	}
	os, err := davObjects(ctx, tx, ts)
	if err != nil {
		return DavObject{}, false, err
	}
	if os = davNamed(os, []string{name}); len(os) == 0 {
		return DavObject{}, false, nil
	}
	return os[0], true, nil
}

// davTarget opens the scope of a write to an object: its collection's
// project, and the object the collection holds under name, if any.
func davTarget(ctx context.Context, tx Tx, a Actor, workspace, key, name string) (*scope, *projectNode, DavObject, bool, error) {
	sc, n, err := davScope(ctx, tx, a, workspace, key)
	if err != nil {
		return nil, nil, DavObject{}, false, err
	}
	o, found, err := davFind(ctx, tx, sc, n, name)
	return sc, n, o, found, err
}

// checkDavConditions refuses a write whose If-Match or If-None-Match the
// object (found or not) does not meet, as version_conflict.
func checkDavConditions(o DavObject, found bool, ifMatch string, ifNoneMatch bool) error {
	switch {
	case ifNoneMatch && found:
		return Errorf(CodeVersionConflict, "this resource exists already; read it and change it with If-Match")
	case ifMatch == "":
		return nil
	case !found:
		return Errorf(CodeVersionConflict, "this resource does not exist")
	case ifMatch != "*" && !etagListHas(ifMatch, o.ETag()):
		return Errorf(CodeVersionConflict, "the task changed since you read it (it is at %s); read it again and reapply your change", o.ETag())
	}
	return nil
}

// etagListHas reports whether an If-Match list names etag.
func etagListHas(list, etag string) bool {
	for _, e := range strings.Split(list, ",") {
		if strings.TrimSpace(e) == etag {
			return true
		}
	}
	return false
}

// DeleteDavObject moves the task a collection holds under name to the
// trash, as DeleteTask does, when ifMatch ("" for any) matches it.
func (s *Service) DeleteDavObject(ctx context.Context, a Actor, workspace, key, name, ifMatch string) error {
	return s.updateKicking(ctx, func(tx Tx) (bool, error) {
		sc, n, o, found, err := davTarget(ctx, tx, a, workspace, key, name)
		if err != nil {
			return false, err
		}
		if !found {
			return false, NotFound("task")
		}
		if err := checkDavConditions(o, found, ifMatch, false); err != nil {
			return false, err
		}
		if err := n.requireItemWrite(); err != nil {
			return false, err
		}
		// A task app's task has few subtasks: the request trashes them
		// itself (n 0) rather than counting them first outside the writer.
		now := tx.Now()
		_, kept, err := s.trashSubtree(ctx, tx, a, sc, o.Task, 0, &now)
		return kept, err
	})
}

// PutDavObject writes the VTODO a client sends to a collection under name:
// a new task when the collection holds none by that name, else a change of
// the task it holds, through the same rules, events and versions as every
// other surface. It answers the object as written and whether it is new.
func (s *Service) PutDavObject(ctx context.Context, a Actor, workspace, key, name string, in DavPut) (DavObject, bool, error) {
	var out DavObject
	var created bool
	err := s.updateKicking(ctx, func(tx Tx) (bool, error) {
		sc, n, o, found, err := davTarget(ctx, tx, a, workspace, key, name)
		if err != nil {
			return false, err
		}
		if err := checkDavConditions(o, found, in.IfMatch, in.IfNoneMatch); err != nil {
			return false, err
		}
		if err := n.requireItemWrite(); err != nil {
			return false, err
		}
		if err := davClaimable(ctx, tx, sc, n, o, found, name, in.UID); err != nil {
			return false, err
		}
		t, kept, err := s.putDavTask(ctx, tx, a, sc, n, o, found, in)
		if err != nil {
			return false, err
		}
		id, rev := t.ID, o.Rev
		if found && o.Task.RepeatRule != "" {
			// A completed occurrence handed the resource to the next one.
			if id, rev, err = davHolder(ctx, tx, sc, n, name, id, rev); err != nil {
				return false, err
			}
		}
		rec := DavRecord{TaskID: id, WorkspaceID: sc.ws.Workspace.ID, Name: name, UID: in.UID, ParentUID: in.ParentUID,
			Extra: in.Extra, Rev: rev + 1}
		if id != o.Task.ID && found {
			rec.Extra = in.NextExtra
		}
		if err := tx.PutDavRecord(ctx, rec); err != nil {
			return false, err
		}
		created = !found
		if found && o.Task.RepeatRule == "" {
			// The update answered the task as stored: reading the object
			// back would cost three reads for the same version.
			out = DavObject{Task: t, DavRecord: rec}
			return kept, nil
		}
		if created {
			if err := s.adoptDavChildren(ctx, tx, a, sc, n, t.ID, in.UID); err != nil {
				return false, err
			}
		}
		if out, _, err = davFind(ctx, tx, sc, n, name); err != nil {
			return false, err
		}
		return kept, nil
	})
	if err == nil && created {
		s.taskCreated()
	}
	return out, created, err
}

// adoptDavChildren files under a new task the tasks of its collection that
// arrived before it naming its UID as their parent's (task apps send
// subtasks in any order), where they are still at the top.
func (s *Service) adoptDavChildren(ctx context.Context, tx Tx, a Actor, sc *scope, n *projectNode, id, uid string) error {
	recs, err := tx.DavChildren(ctx, sc.ws.Workspace.ID, uid)
	if err != nil || len(recs) == 0 {
		return err
	}
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.TaskID)
	}
	ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, ItemFilter: ItemFilter{ProjectIDs: []string{n.ID}}, SkipSubCounts: true}))
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.ParentID != "" || t.ID == id {
			continue
		}
		u := TaskUpdate{Parent: PatchOf(FlexRef(id))}
		if t.RepeatRule != "" {
			u.AppliesTo = PatchOf("this_one")
		}
		if _, _, err := s.updateFound(ctx, tx, a, sc, t, u, 0); err != nil {
			return err
		}
	}
	return nil
}

// davClaimable refuses a name or UID another task of the collection holds:
// a resource is one task, and a UID names one task in a collection (RFC
// 4791's no-uid-conflict). Only the collection's tasks are read, so a task
// in a project the writer cannot see answers as if it did not exist.
func davClaimable(ctx context.Context, tx Tx, sc *scope, n *projectNode, o DavObject, found bool, name, uid string) error {
	if uid == "" {
		return Invalidf("body.UID", "a VTODO needs a UID")
	}
	if found && o.UID != uid {
		return Errorf(CodeConflict, "this resource holds the task with UID %q; a UID does not change", o.UID)
	}
	for _, by := range [][2]string{{name, ""}, {"", uid}} {
		r, err := tx.DavRecordBy(ctx, sc.ws.Workspace.ID, n.ID, by[0], by[1])
		switch {
		case CodeOf(err) == CodeNotFound:
		case err != nil:
			return err
		case !found || r.TaskID != o.Task.ID:
			return Errorf(CodeConflict, "another resource holds the UID %q or the name %q; a UID names one task", uid, name)
		}
	}
	// A task made elsewhere in tend holds its id as its UID.
	other, held, err := davFind(ctx, tx, sc, n, uid+davNameSuffix)
	if err != nil {
		return err
	}
	if held && other.UID == uid && (!found || other.Task.ID != o.Task.ID) {
		return Errorf(CodeConflict, "a task made in tend holds the UID %q as its id; a UID names one task", uid)
	}
	return nil
}

// putDavTask creates or changes the task of a PUT, answering it as stored
// and whether a job on its subtree was kept for the worker.
func (s *Service) putDavTask(ctx context.Context, tx Tx, a Actor, sc *scope, n *projectNode, o DavObject, found bool, in DavPut) (Task, bool, error) {
	zone, err := taskZone(ctx, tx, a, sc, in.Timezone)
	if err != nil {
		return Task{}, false, err
	}
	status, err := davStatusKey(ctx, tx, sc, in.Category)
	if err != nil {
		return Task{}, false, err
	}
	parent, err := davParent(ctx, tx, sc, n, in.ParentUID)
	if err != nil {
		return Task{}, false, err
	}
	dropServedStart(&in)
	due, dueDay := in.Due.in(zone.Loc)
	start, startDay := in.Start.in(zone.Loc)
	if !found {
		c := TaskCreate{Title: in.Title, Description: in.Description, Project: n.ID, Parent: FlexRef(parent), Status: status,
			Tags: in.Tags, Importance: in.Importance, Timezone: in.Timezone, Repeat: davRepeatText(in, zone.Loc), Reminders: in.Reminders}
		c.DueAt, c.DueIsAllDay, c.StartsAt, c.StartsIsAllDay = due, dueDay, start, startDay
		if parent != "" {
			c.Project = ""
		}
		if err := s.validateTaskCreate(&c); err != nil {
			return Task{}, false, err
		}
		t, err := s.createTask(ctx, tx, a, sc, c)
		if err != nil {
			return Task{}, false, err
		}
		t, err = davCompletedAt(ctx, tx, t, nil, in.Completed)
		return t, false, err
	}
	t := o.Task
	u := TaskUpdate{Title: PatchOf(in.Title), Description: patchOrNull(in.Description, in.Description == ""),
		Tags: PatchOf(in.Tags), Importance: optPatch(in.Importance), DueAt: optPatch(due), DueIsAllDay: PatchOf(dueDay),
		StartsAt: optPatch(start), StartsIsAllDay: PatchOf(startDay)}
	if in.Tags == nil {
		u.Tags = PatchOf([]string{})
	}
	if status != "" && in.Category != t.Status.Category {
		u.Status = PatchOf(status)
	}
	if parent != t.ParentID {
		u.Parent = patchOrNull(FlexRef(parent), parent == "")
	}
	if in.Timezone != "" {
		u.Timezone = PatchOf(in.Timezone)
	}
	if rs := davReminders(t, in.Reminders); !sameReminders(rs, t.Reminders) {
		u.Reminders = PatchOf(rs)
	}
	if t.RepeatRule != "" {
		// The resource is the occurrence a client sees: a change of it is
		// for this occurrence, as the task's page changes one.
		u.AppliesTo = PatchOf("this_one")
		rc, err := readDavRepeat(t, in, due, zone.Loc)
		if err != nil {
			return Task{}, false, err
		}
		if rc.complete {
			u.DueAt, u.DueIsAllDay, u.StartsAt, u.StartsIsAllDay = Patch[time.Time]{}, Patch[bool]{}, Patch[time.Time]{}, Patch[bool]{}
			if u.Status, err = davDoneStatus(ctx, tx, sc, t); err != nil {
				return Task{}, false, err
			}
		}
		if rc.repeat.Set {
			u.Repeat, u.AppliesTo = rc.repeat, PatchOf(AppliesFromNowOn)
		}
	} else if in.RRule != "" {
		u.Repeat = PatchOf(davRepeatText(in, zone.Loc))
	}
	if err := s.validateTaskUpdate(&u); err != nil {
		return Task{}, false, err
	}
	done, kept, err := s.updateFound(ctx, tx, a, sc, t, u, 0)
	if err != nil {
		return Task{}, false, err
	}
	done, err = davCompletedAt(ctx, tx, done, t.CompletedAt, in.Completed)
	return done, kept, err
}

// davCompletedAt dates the completion of a task a PUT finished (was it
// not before, was nil) at the client's COMPLETED when that is earlier
// than now (and not before 1970, which no task app means): a task
// completed on a phone offline yesterday was completed yesterday. It is
// part of the PUT's write, whose event and version it shares. It answers
// the task as stored.
func davCompletedAt(ctx context.Context, tx Tx, t Task, was, completed *time.Time) (Task, error) {
	if was != nil || t.CompletedAt == nil || completed == nil || !completed.Before(*t.CompletedAt) || completed.Before(time.Unix(0, 0)) {
		return t, nil
	}
	at := completed.UTC()
	t.CompletedAt = &at
	return t, tx.UpdateTask(ctx, &t)
}

// in is the instant a client's date or time means, in the task's zone loc
// when it is floating, and whether it is a day; nil for none.
func (d *DavTime) in(loc *time.Location) (*time.Time, bool) {
	if d == nil {
		return nil, false
	}
	at := d.At
	if d.Floating || d.AllDay {
		y, m, day := at.Date()
		hh, mm, ss := at.Clock()
		if d.AllDay {
			hh, mm, ss = 0, 0, 0
		}
		at = time.Date(y, m, day, hh, mm, ss, 0, loc)
	}
	at = at.UTC()
	return &at, d.AllDay
}

// davStatusKey is the workspace's first task status of a category, as a
// completion picks; "" for no category.
func davStatusKey(ctx context.Context, tx Tx, sc *scope, category string) (string, error) {
	if category == "" {
		return "", nil
	}
	sts, err := entityStatuses(ctx, tx, sc.ws.Workspace.ID, "task")
	if err != nil {
		return "", err
	}
	for _, st := range sts {
		if st.Category == category {
			return st.Key, nil
		}
	}
	return "", Errorf(CodeConflict, "this workspace has no task status in the %s category", category)
}

// davParent is the id of the task a VTODO's RELATED-TO names as its parent,
// when it is in the same collection; "" otherwise (the task is filed at the
// top, and the UID kept for when its parent arrives).
func davParent(ctx context.Context, tx Tx, sc *scope, n *projectNode, uid string) (string, error) {
	if uid == "" {
		return "", nil
	}
	id := uid
	r, err := tx.DavRecordBy(ctx, sc.ws.Workspace.ID, n.ID, "", uid)
	switch {
	case err == nil:
		id = r.TaskID
	case CodeOf(err) != CodeNotFound:
		return "", err
	}
	ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: []string{id}, ItemFilter: ItemFilter{ProjectIDs: []string{n.ID}}, Limit: 1, SkipSubCounts: true}))
	if err != nil || len(ts) == 0 {
		return "", err
	}
	return ts[0].ID, nil
}

// optPatch sets a field to *v, or clears it for nil.
func optPatch[T any](v *T) Patch[T] {
	if v == nil {
		return Patch[T]{Set: true, Null: true}
	}
	return PatchOf(*v)
}

// patchOrNull sets a field to v, or clears it when null.
func patchOrNull[T any](v T, null bool) Patch[T] {
	if null {
		return Patch[T]{Set: true, Null: true}
	}
	return PatchOf(v)
}

// davReminders is what a PUT makes of task t's reminders: the client's
// object is the whole truth of those a VALARM says (an instant, or before
// a timed due), so one it leaves out is removed and one it adds is added;
// the others, which it never saw, are kept. A reminder it sends back keeps
// its text as tend holds it ("60m" read back as "1h" stays "60m") and
// every reminder its place, so that a PUT of what a GET answered changes
// nothing. An alarm acknowledged later than tend knew moves the reminder's
// Acknowledged on, which withdraws the firing the app has shown.
func davReminders(t Task, sent []Reminder) []Reminder {
	timed := t.DueAt != nil && !t.DueIsAllDay
	used := make([]bool, len(sent))
	out := []Reminder{}
	for _, r := range t.Reminders {
		if r.At == nil && !timed {
			out = append(out, r)
			continue
		}
		for i, s := range sent {
			if !used[i] && r.SameTime(s) {
				used[i] = true
				if s.Acknowledged != nil && (r.Acknowledged == nil || s.Acknowledged.After(*r.Acknowledged)) {
					r.Acknowledged = s.Acknowledged
				}
				out = append(out, r)
				break
			}
		}
	}
	for i, s := range sent {
		if !used[i] {
			out = append(out, s)
		}
	}
	return out
}

// SameTime reports whether r and o fire at the same time, whatever the
// unit a before is written in.
func (r Reminder) SameTime(o Reminder) bool {
	if r.At != nil || o.At != nil {
		return r.At != nil && o.At != nil && r.At.Equal(*o.At)
	}
	_, okR := ParseBefore(r.Before)
	_, okO := ParseBefore(o.Before)
	return okR && okO && r.beforeDuration() == o.beforeDuration()
}
