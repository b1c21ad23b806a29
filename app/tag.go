package app

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Tag is one entry of a workspace's tag vocabulary. Names are
// case-insensitive; a tag is created by being used.
type Tag struct {
	ID          string
	WorkspaceID string
	Name        string
	Description string
	// Declared is set when the tag was added on purpose (POST /v1/tags):
	// it is then the workspace's vocabulary, seen by every reader, wherever
	// it is applied.
	Declared bool
}

type tagTx interface {
	TagByID(ctx context.Context, id string) (Tag, error)
	TagByName(ctx context.Context, workspaceID, name string) (Tag, error)
	InsertTag(ctx context.Context, t *Tag) error
	// TagsByName reads the tags with these names, compared
	// case-insensitively; a name no tag holds is left out.
	TagsByName(ctx context.Context, workspaceID string, names []string) ([]Tag, error)
	// InsertTags stores tags in one statement, in the order given.
	InsertTags(ctx context.Context, ts []Tag) error
	UpdateTag(ctx context.Context, t *Tag) error
	// TagPage lists the tags the filter admits by name after f.After.
	TagPage(ctx context.Context, f TagFilter) ([]Tag, error)
	// TagSeen reports whether the filter admits the tag with this id.
	TagSeen(ctx context.Context, f TagFilter, id string) (bool, error)
	// MergeTagInto hides the tag from as HideTag does, merged into the
	// tag into: every read counts its applications as into's from then
	// on, and PurgeTag moves them onto into. deletion is kept as HideTag's.
	MergeTagInto(ctx context.Context, from, into, deletion string) error
}

// TagFilter selects the tags of a workspace one reader may see: those
// declared with POST /v1/tags, those applied to an item (live or in the
// trash) in a project whose items the reader may read, and those applied to
// nothing at all; declared and unused tags are the workspace's vocabulary
// and disclose no item. A tag used only where the
// reader cannot see is left out of pages and totals alike.
type TagFilter struct {
	WorkspaceID string
	Readable    string // JSON array of the project ids whose items the reader may read
	AllReadable bool   // the reader may read every project: every tag is seen
	After       string
	Limit       int
}

// tagFilter is the scope's reader's filter over its workspace's tags.
func (sc *scope) tagFilter(after string, limit int) TagFilter {
	return TagFilter{WorkspaceID: sc.ws.Workspace.ID, Readable: sc.readJSON, AllReadable: sc.readsAll, After: after, Limit: limit}
}

// CreateTag is a new tag (POST /v1/tags).
type CreateTag struct {
	Name        string
	Description *string
}

// UpdateTag renames a tag or changes its description (PATCH
// /v1/tags/{which}).
type UpdateTag struct {
	Name        Patch[string]
	Description Patch[string]
}

// TagPage is one page of the tag vocabulary.
type TagPage struct {
	Items []Tag
	Page  Page
}

var tagRe = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N}_./:-]*$`)

// normalTag strips a leading '#' and checks the name.
func (s *Service) normalTag(loc, name string) (string, error) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "#")
	if n := utf8.RuneCountInString(name); n > s.limits.MaxTagLength || !tagRe.MatchString(name) {
		return "", Invalidf(loc, "a tag is 1-%d letters, digits, '_', '.', '/', ':' or '-', starting with a letter or digit", s.limits.MaxTagLength)
	}
	return name, nil
}

// ensureTags returns the named tags, creating those not yet used. A tag
// made by being used is recorded like one made on purpose, so the
// vocabulary's events stay whole, but filed in the project of the item it
// was made on: the change feed shows its name only to those who may read
// that item, as the tag listing does. However many names, it reads the
// tags in one statement, and creates the new ones and stores their events
// (in the order named) in one more each.
func ensureTags(ctx context.Context, tx Tx, a Actor, workspaceID, projectID string, names []string) ([]Tag, error) {
	if len(names) == 0 {
		return nil, nil
	}
	have, err := tx.TagsByName(ctx, workspaceID, names)
	if err != nil {
		return nil, err
	}
	out, _, err := completeTags(ctx, tx, a, workspaceID, projectID, names, have)
	return out, err
}

// tagNewTask applies the named tags to a new task, as ensureTags finds or
// makes them, and returns them: those that exist are applied as they are
// found, in one statement, and only those it makes need more.
func tagNewTask(ctx context.Context, tx Tx, a Actor, t *Task, names []string) ([]Tag, error) {
	if len(names) == 0 {
		return nil, nil
	}
	have, err := tx.TagNewTask(ctx, t.ID, t.WorkspaceID, names)
	if err != nil {
		return nil, err
	}
	out, made, err := completeTags(ctx, tx, a, t.WorkspaceID, t.ProjectID, names, have)
	if err != nil || len(made) == 0 {
		return out, err
	}
	return out, tx.AddTaskTags(ctx, t.ID, tagIDs(made))
}

// completeTags returns the named tags, in the order named, from have, the
// workspace's tags holding some of the names, and creates (with their
// events) and returns as made the tags for the other names.
func completeTags(ctx context.Context, tx Tx, a Actor, workspaceID, projectID string, names []string, have []Tag) (out, made []Tag, err error) {
	// Names are unique ignoring ASCII case, as SQLite's NOCASE compares.
	byName := make(map[string]Tag, len(names))
	for _, t := range have {
		byName[asciiLower(t.Name)] = t
	}
	out = make([]Tag, 0, len(names))
	var events []Event
	for _, n := range names {
		t, ok := byName[asciiLower(n)]
		if !ok {
			t = Tag{ID: newID(), WorkspaceID: workspaceID, Name: n}
			byName[asciiLower(n)] = t
			made = append(made, t)
			events = append(events, stamp(tx, a, Event{WorkspaceID: workspaceID, ProjectID: projectID, EntityType: "tag", EntityID: t.ID,
				Action: "tag.created", Changes: map[string]any{"name": n}}))
		}
		out = append(out, t)
	}
	if len(made) == 0 {
		return out, nil, nil
	}
	if err := tx.InsertTags(ctx, made); err != nil {
		return nil, nil, err
	}
	return out, made, tx.InsertEvents(ctx, events)
}

func tagIDs(tags []Tag) []string {
	ids := make([]string, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	return ids
}

// tagNames lists the tags' names in the order an item's tags are given.
func tagNames(tags []Tag) []string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Name
	}
	SortTagNames(names)
	return names
}

// SortTagNames puts one item's tag names in the order they are given
// everywhere: by SQLite's lower(), which folds ASCII letters only, compared
// byte by byte, as tag pages are ordered. Names that fold alike cannot meet
// on one item, since tags are unique ignoring ASCII case.
func SortTagNames(names []string) {
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(asciiLower(a), asciiLower(b)) })
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Tags pages through a workspace's tags by name, those the caller may see
// (see TagFilter).
func (s *Service) Tags(ctx context.Context, a Actor, workspace string, limit int, cursor string, total bool) (TagPage, error) {
	n, err := s.pageLimit(limit)
	if err != nil {
		return TagPage{}, err
	}
	var out TagPage
	err = s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		// The readable projects are part of the filter: a cursor made for
		// one reach is refused by another.
		fp := sc.ws.Workspace.ID + "|" + sc.readJSON
		cur, err := decodeCursor(cursor, "tags", fp)
		if err != nil {
			return err
		}
		tags, err := tx.TagPage(ctx, sc.tagFilter(cur.ID, n+1))
		if err != nil {
			return err
		}
		tags, out.Page = cutPage(tags, n, "tags", fp, func(last Tag) cursorKey { return cursorKey{ID: last.Name} })
		out.Items = tags
		if total {
			sum, err := tx.Tags(ctx, sc.tagFilter("", 0))
			if err != nil {
				return err
			}
			out.Page.Total = &sum.Total
		}
		return nil
	}))
	return out, err
}

// AddTag declares a tag with a meaning, before or after anything uses it.
// A tag of that name that the caller cannot see (made by use, only on
// items hidden from it) answers exactly as a new one would: the caller's
// declaration adopts it, with the caller's meaning, so no refusal hints
// that the name is in use where the caller cannot look.
func (s *Service) AddTag(ctx context.Context, a Actor, workspace string, in CreateTag) (Tag, error) {
	name, err := s.normalTag("body.name", in.Name)
	if err != nil {
		return Tag{}, err
	}
	var out Tag
	err = s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		if err := sc.ws.require(PermItemWrite); err != nil {
			return err
		}
		out = Tag{ID: newID(), WorkspaceID: sc.ws.Workspace.ID, Name: name, Declared: true}
		if in.Description != nil {
			out.Description = *in.Description
		}
		err = tx.InsertTag(ctx, &out)
		if CodeOf(err) == CodeConflict {
			err = adoptUnseenTag(ctx, tx, sc, &out)
		}
		if err != nil {
			return err
		}
		return record(ctx, tx, a, Event{WorkspaceID: out.WorkspaceID, EntityType: "tag", EntityID: out.ID, Action: "tag.created",
			Changes: map[string]any{"name": name}})
	}))
	return out, err
}

// unseenHolder returns the tag that holds t's name when the caller cannot
// see it, so the caller's write may take the name over; a holder the caller
// can see is the conflict.
func unseenHolder(ctx context.Context, tx Tx, sc *scope, t *Tag) (Tag, error) {
	have, err := tx.TagByName(ctx, t.WorkspaceID, t.Name)
	if err != nil {
		return Tag{}, err
	}
	seen, err := tx.TagSeen(ctx, sc.tagFilter("", 0), have.ID)
	if err == nil && seen {
		err = Errorf(CodeConflict, "tag %q exists already", t.Name)
	}
	return have, err
}

// adoptUnseenTag turns a declaration whose name is taken into the
// adoption of that tag when the caller cannot see it, and into a conflict
// when it can.
func adoptUnseenTag(ctx context.Context, tx Tx, sc *scope, t *Tag) error {
	have, err := unseenHolder(ctx, tx, sc, t)
	if err != nil {
		return err
	}
	t.ID, t.Name = have.ID, have.Name
	return tx.UpdateTag(ctx, t)
}

// mergeUnseenTag turns a rename onto a taken name into a merge when the
// caller cannot see the tag holding it (made by use, only on items hidden
// from the caller), and into a conflict when it can. The renamed tag keeps
// its id and meaning and takes over the hidden tag's items, which keep
// their tag's name. The hidden tag is marked merged and gone at once; the
// worker moves its applications in steps and files its end, as it finds
// them, for those who could see it (bulk.go). used tells whether the
// renamed tag was on anything: a tag on nothing was vocabulary every
// reader saw, and is declared so that carrying hidden items does not take
// it out of sight.
func mergeUnseenTag(ctx context.Context, tx Tx, a Actor, sc *scope, t *Tag, used bool) error {
	have, err := unseenHolder(ctx, tx, sc, t)
	if err != nil {
		return err
	}
	// The holder is made by use and on items: one declared or on nothing
	// is seen by every reader.
	deletion, err := pendingTagEvent(a, have, "tag.deleted", map[string]any{"name": have.Name, "merged_into": t.ID})
	if err != nil {
		return err
	}
	if err := tx.MergeTagInto(ctx, have.ID, t.ID, string(deletion)); err != nil {
		return err
	}
	t.Declared = t.Declared || !used
	return tx.UpdateTag(ctx, t)
}

// recordTagEvent files a change to a tag where the tag is seen (see
// TagFilter): at workspace level for vocabulary, declared or on nothing,
// else once in each project of the items it is on, as projects lists them,
// so that no one reads of a tag used only where they cannot look.
func recordTagEvent(ctx context.Context, tx Tx, a Actor, t Tag, projects []string, action string, changes map[string]any) error {
	if t.Declared || len(projects) == 0 {
		projects = []string{""}
	}
	for _, p := range projects {
		if err := record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, ProjectID: p, EntityType: "tag", EntityID: t.ID,
			Action: action, Changes: changes}); err != nil {
			return err
		}
	}
	return nil
}

// tagEntry opens the tag a PATCH or DELETE names, for a caller who may
// change the vocabulary. A tag the caller cannot see is not found, as one
// that does not exist.
func tagEntry(ctx context.Context, tx Tx, a Actor, id string) (Tag, *scope, error) {
	t, err := tx.TagByID(ctx, id)
	if err != nil {
		return Tag{}, nil, notFoundAs(err, "tag")
	}
	acc, w, err := entryWorkspace(ctx, tx, a, t.WorkspaceID, "tag")
	if err != nil {
		return Tag{}, nil, err
	}
	sc, err := scopeOf(ctx, tx, acc, w)
	if err != nil {
		return Tag{}, nil, err
	}
	seen, err := tx.TagSeen(ctx, sc.tagFilter("", 0), t.ID)
	if err != nil {
		return Tag{}, nil, err
	}
	if !seen {
		return Tag{}, nil, NotFound("tag")
	}
	return t, sc, w.require(PermWorkspaceWrite)
}

// ChangeTag renames a tag or changes its meaning. A rename onto the name
// of a tag the caller cannot see answers as onto a free name (see
// mergeUnseenTag). The tag is changed for every reader when it returns; a
// tag made by use is told of in each project it is applied in, and the
// worker files those events in steps (bulk.go), since finding the projects
// takes reading every application.
func (s *Service) ChangeTag(ctx context.Context, a Actor, id string, in UpdateTag) (Tag, error) {
	if in.Name.Set {
		n, err := s.normalTag("body.name", in.Name.Value)
		if err != nil {
			return Tag{}, err
		}
		in.Name.Value = n
	}
	var out Tag
	queued := false
	err := s.store.Update(ctx, func(tx Tx) error {
		t, sc, err := tagEntry(ctx, tx, a, id)
		if err != nil {
			return err
		}
		used, err := tx.TagUsed(ctx, t.ID)
		if err != nil {
			return err
		}
		changes := map[string]any{}
		setChange(changes, "name", &t.Name, in.Name)
		if in.Description.Set {
			setChange(changes, "description", &t.Description, Patch[string]{Set: true, Value: in.Description.Value})
		}
		err = tx.UpdateTag(ctx, &t)
		if CodeOf(err) == CodeConflict {
			// The merge is in steps: the worker moves the hidden tag's
			// items. Until it has, the kept change below is filed where
			// the renamed tag was before, not where the merge brings it,
			// whose readers are told of the merge alone: the worker files
			// kept changes before it moves anything.
			err = mergeUnseenTag(ctx, tx, a, sc, &t, used)
			queued = err == nil
		}
		if err != nil {
			return err
		}
		out = t
		if t.Declared || !used {
			return recordTagEvent(ctx, tx, a, t, nil, "tag.updated", changes)
		}
		e, err := pendingTagEvent(a, t, "tag.updated", changes)
		if err == nil {
			err = tx.QueueTagNotice(ctx, t.ID, string(e))
		}
		queued = queued || err == nil
		return err
	})
	if queued {
		s.kick()
	}
	return out, err
}

// pendingTagEvent is the event of a change to a tag made by use, as the
// worker files it in each project the tag is applied in (fileTagEvent).
func pendingTagEvent(a Actor, t Tag, action string, changes map[string]any) ([]byte, error) {
	e := Event{WorkspaceID: t.WorkspaceID, EntityType: "tag", EntityID: t.ID, Action: action, Changes: changes,
		ActorTokenID: a.tokenID(), ActorInterface: a.Interface}
	if !a.system {
		e.ActorUserID = a.User.ID
	}
	return json.Marshal(e)
}

// RemoveTag deletes a tag and takes it off everything it was on. The tag
// is gone for every reader when it returns; its applications, which can
// number hundreds of thousands, are removed afterwards in steps by the
// worker (bulk.go).
func (s *Service) RemoveTag(ctx context.Context, a Actor, id string) error {
	err := s.store.Update(ctx, func(tx Tx) error {
		t, _, err := tagEntry(ctx, tx, a, id)
		if err != nil {
			return err
		}
		changes := map[string]any{"name": t.Name}
		used, err := tx.TagUsed(ctx, id)
		if err != nil {
			return err
		}
		// Vocabulary is told of at once, at workspace level; a tag made by
		// use where the worker finds its items (fileTagEvent).
		var deletion []byte
		if !t.Declared && used {
			if deletion, err = pendingTagEvent(a, t, "tag.deleted", changes); err != nil {
				return err
			}
		}
		if err := tx.HideTag(ctx, id, string(deletion)); err != nil {
			return err
		}
		if len(deletion) > 0 {
			return nil
		}
		return recordTagEvent(ctx, tx, a, t, nil, "tag.deleted", changes)
	})
	if err == nil {
		s.kick()
	}
	return err
}
