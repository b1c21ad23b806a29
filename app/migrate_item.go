package app

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"tend/app/line"
)

// task writes one task of a migration into n: anew, or over the task an
// earlier import of the same tool wrote for it. Then its comments.
func (mg *migrator) task(n *projectNode, t *MigratedTask) error {
	ref, found, err := mg.lookup("task", t.ExternalID)
	if err != nil {
		return err
	}
	var loc TaskLocation
	if found {
		loc, err = mg.tx.TaskLocator(mg.ctx, mg.sc.ws.Workspace.ID, ref.EntityID)
		if CodeOf(err) == CodeNotFound {
			found = false
		} else if err != nil {
			return err
		}
	}
	switch {
	case found && loc.DeletedAt != nil:
		mg.unmapped(t.Where, t.Title, "left alone: the task an earlier import wrote for it is in the trash")
		mg.tasks[t.ExternalID] = loc
		return nil
	case found && !mg.sc.byID[loc.ProjectID].canWriteItems():
		return NotFound("task")
	}
	item := &TaskMigrated{Ref: loc.Ref, Title: loc.Title, Where: t.Where}
	if found {
		if item, err = mg.updateTask(loc, t, ref); err != nil {
			return err
		}
	} else if loc, err = mg.createTask(n, t); err != nil {
		return err
	}
	mg.tasks[t.ExternalID] = loc
	if err := mg.comments(loc, t, item); err != nil {
		return err
	}
	if len(item.Updated) > 0 || len(item.Conflicts) > 0 {
		mg.cur.Tasks = append(mg.cur.Tasks, *item)
	}
	return nil
}

// taskCreate is the new task a migrated one makes, with what of it tend
// cannot keep reported.
func (mg *migrator) taskCreate(n *projectNode, t *MigratedTask) TaskCreate {
	in := TaskCreate{Title: t.Title, Description: t.Description, Project: n.ID, Importance: t.Importance, Urgency: t.Urgency,
		DueAt: t.Due, DueIsAllDay: t.DueAllDay, StartsAt: t.Starts, EstimateMinutes: t.EstimateMinutes, Repeat: t.Repeat,
		Tags: mg.tags(t), Type: mg.itemType(t)}
	if t.Timezone != "" {
		if err := checkTimezone("timezone", t.Timezone); err != nil {
			mg.unmapped(t.Where, t.Timezone, "not a timezone tend knows; the dates are read in yours")
		} else {
			in.Timezone = t.Timezone
		}
	}
	if t.When != "" {
		if mg.readsAsDate(t.When) {
			// A captured line needs title words; the title set beside it
			// wins, so one placeholder word stands in for them.
			in.Text = "x " + t.When
		} else {
			mg.unmapped(t.Where, t.When, "not a date or repeat tend reads: the task is left undated, the words kept in its description")
			in.Description = strings.TrimSpace(in.Description + "\n\n" + mg.m.Source + " date: " + t.When)
		}
	}
	if t.Parent != "" {
		if p, ok := mg.tasks[t.Parent]; ok && p.ProjectID == n.ID {
			in.Parent = FlexRef(p.ID)
		} else {
			mg.unmapped(t.Where, t.Title, "its parent task %s is not in the same project: filed at the top", t.Parent)
		}
	}
	in.Assignee = mg.member(t)
	in.Status = mg.statusKey(t)
	return in
}

// createTask writes a migrated task anew.
func (mg *migrator) createTask(n *projectNode, t *MigratedTask) (TaskLocation, error) {
	in := mg.taskCreate(n, t)
	if err := mg.s.validateTaskCreate(&in); err != nil {
		return TaskLocation{}, err
	}
	made, err := mg.s.createTask(mg.ctx, mg.tx, mg.a, mg.sc, in)
	if err != nil {
		return TaskLocation{}, err
	}
	mg.cur.TasksCreated++
	loc := TaskLocation{ID: made.ID, WorkspaceID: made.WorkspaceID, ProjectID: made.ProjectID, Ref: made.Ref, Title: made.Title,
		ParentID: made.ParentID}
	return loc, mg.remember("task", t.ExternalID, ExternalRef{EntityType: "task", EntityID: made.ID,
		Imported: mg.fileValues(in, in.Text == "" && in.Repeat == "").encode()})
}

// updateTask brings a task an earlier import wrote up to date with what
// changed in the file since (migrate_keep.go): its title, description,
// tags, status, type, importance, urgency, size, assignee and, unless it
// repeats (a series keeps its own dates), its due date. It stays where it
// is filed. The report names it when anything changed or conflicted.
func (mg *migrator) updateTask(loc TaskLocation, t *MigratedTask, ext ExternalRef) (*TaskMigrated, error) {
	cur, err := readTask(mg.ctx, mg.tx, mg.sc, loc.ID)
	if err != nil {
		return nil, err
	}
	in := mg.taskCreate(mg.sc.byID[loc.ProjectID], t)
	file := mg.fileValues(in, cur.SeriesID == "" && in.Text == "" && in.Repeat == "")
	k := mg.mergeTask(cur, in, file, ext.Imported)
	k.item.Where = t.Where
	if err := mg.keepImported("task", t.ExternalID, ext, file); err != nil {
		return nil, err
	}
	if err := mg.s.validateTaskUpdate(&k.up); err != nil {
		return nil, err
	}
	before := cur
	// A migration changes each task in its own transaction: no job.
	var job *TaskJob
	changes, err := mg.s.applyTaskUpdate(mg.ctx, mg.tx, mg.sc, &cur, k.up, 0, &job)
	if err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		mg.cur.TasksUnchanged++
		return &k.item, nil
	}
	if err := saveTask(mg.ctx, mg.tx, mg.a, &cur, "task.updated", changes); err != nil {
		return nil, err
	}
	if !before.IsComplete() && cur.IsComplete() {
		if _, err := bringNext(mg.ctx, mg.tx, mg.a, cur); err != nil {
			return nil, err
		}
	}
	mg.cur.TasksUpdated++
	k.item.Title = cur.Title
	return &k.item, nil
}

func set[T any](v T) Patch[T] { return Patch[T]{Set: true, Value: v} }

func setPtr[T any](v *T) Patch[T] {
	if v == nil {
		return Patch[T]{Set: true, Null: true}
	}
	return Patch[T]{Set: true, Value: *v}
}

// readsAsDate reports whether the captured-line grammar reads all of
// words as a date and repeat, leaving nothing over.
func (mg *migrator) readsAsDate(words string) bool {
	res, err := line.Parse("x "+words, mg.tx.Now(), time.UTC)
	return err == nil && res.Title == "x" && len(res.Tags) == 0 && res.Project == "" && (!res.Due.IsZero() || !res.Repeat.IsZero())
}

var tagJunk = regexp.MustCompile(`[^\p{L}\p{N}_./:-]+`)

// TagName is the tag a label of another tool becomes: spaces and anything
// else a tag cannot hold as '-', without a leading '#' or '@'; "" when
// nothing is left.
func TagName(label string) string {
	s := tagJunk.ReplaceAllString(strings.TrimLeft(strings.TrimSpace(label), "#@"), "-")
	return strings.Trim(s, "-_./:")
}

// tags maps a migrated task's labels to tag names, reporting those that
// change or cannot be kept.
func (mg *migrator) tags(t *MigratedTask) []string {
	out := []string{}
	for _, l := range t.Tags {
		name := TagName(l)
		if name == "" || len([]rune(name)) > mg.s.limits.MaxTagLength {
			mg.unmapped(t.Where, l, "a label tend cannot make a tag of (letters, digits, '_', '.', '/', ':' or '-', at most %d)",
				mg.s.limits.MaxTagLength)
			continue
		}
		out = append(out, name)
	}
	return dedupeFold(out)
}

// member is the workspace member a migrated task's assignee names, "" when
// none: the tool's people are not tend's accounts unless the names agree.
func (mg *migrator) member(t *MigratedTask) string {
	if t.Assignee == "" {
		return ""
	}
	u, err := workspaceMember(mg.ctx, mg.tx, mg.sc, t.Assignee, "assignee")
	if err != nil {
		mg.unmapped(t.Where, t.Assignee, "no member of this workspace has that username: left unassigned")
		return ""
	}
	return u.Username
}

// statusKey is the status a migrated task's Status names: a key of the
// workspace, else the first status of a category.
func (mg *migrator) statusKey(t *MigratedTask) string {
	if t.Status == "" {
		return ""
	}
	sts, err := statusKind.list(mg.tx, mg.ctx, mg.sc.ws.Workspace.ID)
	if err != nil {
		return ""
	}
	for _, st := range sts {
		if st.EntityType == "task" && st.Key == t.Status {
			return st.Key
		}
	}
	for _, st := range sts {
		if st.EntityType == "task" && st.Category == t.Status {
			return st.Key
		}
	}
	mg.unmapped(t.Where, t.Status, "no task status or status category of that name: the default status")
	return ""
}

// itemType is the item type a migrated task's Type names, "" (the
// default) when the workspace has none of that key.
func (mg *migrator) itemType(t *MigratedTask) string {
	if t.Type == "" {
		return ""
	}
	if _, err := itemTypeFor(mg.ctx, mg.tx, mg.sc.ws.Workspace.ID, "task", t.Type, "type"); err != nil {
		mg.unmapped(t.Where, t.Type, "no task type of that key in this workspace: the default type")
		return ""
	}
	return t.Type
}

func (mg *migrator) defaultStatusKey() string {
	st, err := statusFor(mg.ctx, mg.tx, mg.sc.ws.Workspace.ID, "task", "", "status")
	if err != nil {
		return ""
	}
	return st.Key
}

// comments writes a task's comments: anew, or over one an earlier import
// wrote where the file changed it since and tend did not (else, changed
// on both sides, tend's stays and item lists the conflict). The importing
// account writes them; the tool's author and time head the text.
func (mg *migrator) comments(loc TaskLocation, t *MigratedTask, item *TaskMigrated) error {
	it := addressed{sc: mg.sc, node: mg.sc.byID[loc.ProjectID], Type: "task", ID: loc.ID, Ref: &loc.Ref, Title: loc.Title, ParentID: loc.ParentID}
	for _, c := range t.Comments {
		body := commentBody(mg.m.Source, c)
		if err := mg.s.checkCommentBody("body.body", body); err != nil {
			return atWhere(c.Where, err)
		}
		ref, found, err := mg.lookup("comment", c.ExternalID)
		if err != nil {
			return err
		}
		if found {
			cur, err := mg.tx.CommentByID(mg.ctx, ref.EntityID)
			if err == nil && cur.DeletedAt == nil {
				if err := mg.mergeComment(it, &cur, c, body, ref, item); err != nil {
					return err
				}
				continue
			}
			if CodeOf(err) != CodeNotFound && err != nil {
				return err
			}
			if err == nil {
				continue // withdrawn since: it stays withdrawn
			}
		}
		made, err := insertComment(mg.ctx, mg.tx, mg.a, it, body)
		if err != nil {
			return err
		}
		mg.cur.CommentsCreated++
		imported := importedValues{"body": body}.encode()
		if err := mg.remember("comment", c.ExternalID, ExternalRef{EntityType: "comment", EntityID: made.ID, Imported: imported}); err != nil {
			return err
		}
	}
	return nil
}

// mergeComment revises a comment an earlier import wrote, cur, to the
// file's body where only the file changed it since.
func (mg *migrator) mergeComment(it addressed, cur *Comment, c MigratedComment, body string, ref ExternalRef, item *TaskMigrated) error {
	base, _ := decodeImported(ref.Imported)
	apply, conflict := follows(base, "body", body, cur.Body)
	field := "comment at " + c.Where
	switch {
	case conflict:
		item.Conflicts = append(item.Conflicts, MigrateConflict{Field: field, Kept: shown("body", cur.Body), File: shown("body", body)})
	case apply:
		item.Updated = append(item.Updated, field)
		mg.cur.CommentsUpdated++
		if err := reviseComment(mg.ctx, mg.tx, mg.a, it, cur, body); err != nil {
			return err
		}
	}
	return mg.keepImported("comment", c.ExternalID, ref, importedValues{"body": body})
}

// keepImported records what the file held for a row an earlier import
// wrote, when it differs from what that import kept: a file imported
// again as it was writes nothing for it.
func (mg *migrator) keepImported(kind, id string, ref ExternalRef, file importedValues) error {
	if enc := file.encode(); enc != ref.Imported {
		ref.Imported = enc
		return mg.remember(kind, id, ref)
	}
	return nil
}

// commentBody is a migrated comment's text, headed by who wrote it in the
// tool, and when, if the tool says.
func commentBody(source string, c MigratedComment) string {
	var head []string
	if c.Author != "" {
		head = append(head, c.Author)
	}
	if c.At != nil {
		head = append(head, c.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if len(head) == 0 {
		return c.Body
	}
	return fmt.Sprintf("*%s, in %s:*\n\n%s", strings.Join(head, ", "), source, c.Body)
}
