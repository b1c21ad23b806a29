package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"

	"tend/app"
)

// InsertStatus stores a status.
func (t *Tx) InsertStatus(ctx context.Context, st *app.Status) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO statuses (id, workspace_id, entity_type, key, label, category, position,
		is_default, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		st.ID, st.WorkspaceID, st.EntityType, st.Key, st.Label, st.Category, st.Position, st.IsDefault,
		fmtTime(st.CreatedAt), fmtTime(st.UpdatedAt))
	return mapErr(err)
}

// entryRow holds the columns statuses and item types share.
type entryRow struct {
	ID          string `db:"id"`
	WorkspaceID string `db:"workspace_id"`
	EntityType  string `db:"entity_type"`
	Key         string `db:"key"`
	Label       string `db:"label"`
	Category    string `db:"category"`
	Position    int    `db:"position"`
	IsDefault   bool   `db:"is_default"`
}

func (r entryRow) itemType() app.ItemType {
	return app.ItemType{ID: r.ID, WorkspaceID: r.WorkspaceID, EntityType: r.EntityType, Key: r.Key, Label: r.Label,
		Category: r.Category, Position: r.Position, IsDefault: r.IsDefault}
}

type statusRow struct {
	entryRow
	CreatedAt string `db:"created_at"`
	UpdatedAt string `db:"updated_at"`
}

func (r statusRow) status() app.Status {
	return app.Status{VocabEntry: app.VocabEntry(r.itemType()), CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt)}
}

// vocabRev reads a workspace's vocabulary revision, -1 for no such
// workspace, once per transaction until it writes (revsRead).
func (t *Tx) vocabRev(ctx context.Context, workspaceID string) (int64, error) {
	if rev, ok := t.tx.revs.vocab[workspaceID]; ok {
		return rev, nil
	}
	var rev int64
	if err := t.tx.GetContext(ctx, &rev, `SELECT coalesce((SELECT vocab_rev FROM workspaces WHERE id = ?), -1)`, workspaceID); err != nil {
		return 0, mapErr(err)
	}
	t.tx.rememberVocab(workspaceID, rev)
	return rev, nil
}

// cachedVocab answers one part of a workspace's vocabulary from c while
// vocab_rev has not moved, and otherwise reads it and keeps it (see revCache).
func cachedVocab[T any](ctx context.Context, t *Tx, c *revCache[[]T], workspaceID string, read func() ([]T, error)) ([]T, error) {
	rev, err := t.vocabRev(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	if v, ok := c.get(workspaceID, rev); ok {
		return slices.Clone(v), nil
	}
	v, err := read()
	if err == nil && rev >= 0 {
		c.keep(t, workspaceID, rev, slices.Clone(v))
	}
	return v, err
}

// vocabulary is how one of a workspace's three vocabularies (statuses,
// item types, link types) is stored: they are listed, cached, read by id,
// removed and counted alike. R is the row scanned, T the domain's entry.
type vocabulary[R, T any] struct {
	list, byID, remove, uses string // the statements; uses counts what refers to entry ?1
	cache                    func(db *DB) *revCache[[]T]
	entry                    func(R) T
}

// newVocabulary states a vocabulary by its table, the columns of its rows,
// the order of a workspace's entries and the count of an entry's uses.
func newVocabulary[R, T any](table, columns, order, uses string, cache func(db *DB) *revCache[[]T], entry func(R) T) vocabulary[R, T] {
	sel := "SELECT " + columns + " FROM " + table + " WHERE "
	return vocabulary[R, T]{list: sel + "workspace_id = ? ORDER BY " + order, byID: sel + "id = ?",
		remove: "DELETE FROM " + table + " WHERE id = ?", uses: uses, cache: cache, entry: entry}
}

var (
	statuses = newVocabulary("statuses", "id, workspace_id, entity_type, key, label, category, position, is_default, created_at, updated_at",
		"entity_type, position, key",
		`SELECT (SELECT count(*) FROM tasks WHERE status_id = ?1) + (SELECT count(*) FROM projects WHERE status_id = ?1)
		+ (SELECT count(*) FROM documents WHERE status_id = ?1)`,
		func(db *DB) *revCache[[]app.Status] { return &db.statuses }, statusRow.status)
	itemTypes = newVocabulary("item_types", "id, workspace_id, entity_type, key, label, category, position, is_default",
		"entity_type DESC, position", "", func(db *DB) *revCache[[]app.ItemType] { return &db.itemTypes }, entryRow.itemType)
	linkTypes = newVocabulary("link_types", "id, workspace_id, key, title, inverse_title, is_symmetric, category, created_at",
		"created_at, rowid", `SELECT count(*) FROM links WHERE link_type_id = ?1`,
		func(db *DB) *revCache[[]app.LinkType] { return &db.linkTypes }, linkTypeRow.linkType)
)

// entries lists a workspace's entries in display order.
func (v vocabulary[R, T]) entries(ctx context.Context, t *Tx, workspaceID string) ([]T, error) {
	return cachedVocab(ctx, t, v.cache(t.db), workspaceID, func() ([]T, error) {
		return selectRows(ctx, t, v.entry, v.list, workspaceID)
	})
}

// one reads an entry by id.
func (v vocabulary[R, T]) one(ctx context.Context, t *Tx, id string) (T, error) {
	var r R
	if err := t.tx.GetContext(ctx, &r, v.byID, id); err != nil {
		var none T
		return none, mapErr(err)
	}
	return v.entry(r), nil
}

// delete removes an entry.
func (v vocabulary[R, T]) delete(ctx context.Context, t *Tx, id string) error {
	_, err := t.tx.ExecContext(ctx, v.remove, id)
	return mapErr(err)
}

// count counts what uses an entry.
func (v vocabulary[R, T]) count(ctx context.Context, t *Tx, id string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, v.uses, id)
	return n, mapErr(err)
}

// Statuses lists a workspace's statuses by entity type, then display order.
func (t *Tx) Statuses(ctx context.Context, workspaceID string) ([]app.Status, error) {
	return statuses.entries(ctx, t, workspaceID)
}

// InsertItemType stores an item type.
func (t *Tx) InsertItemType(ctx context.Context, it *app.ItemType) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO item_types (id, workspace_id, entity_type, key, label, category, position, is_default)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, it.ID, it.WorkspaceID, it.EntityType, it.Key, it.Label, it.Category, it.Position, it.IsDefault)
	return mapErr(err)
}

// ItemTypes lists a workspace's item types, task types first, each in display order.
func (t *Tx) ItemTypes(ctx context.Context, workspaceID string) ([]app.ItemType, error) {
	return itemTypes.entries(ctx, t, workspaceID)
}

// InsertLinkType stores a link type.
func (t *Tx) InsertLinkType(ctx context.Context, lt *app.LinkType) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO link_types (id, workspace_id, key, title, inverse_title, is_symmetric, category, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, lt.ID, lt.WorkspaceID, lt.Key, lt.Title, lt.InverseTitle, lt.IsSymmetric, lt.Category, fmtTime(lt.CreatedAt))
	return mapErr(err)
}

type linkTypeRow struct {
	ID           string `db:"id"`
	WorkspaceID  string `db:"workspace_id"`
	Key          string `db:"key"`
	Title        string `db:"title"`
	InverseTitle string `db:"inverse_title"`
	IsSymmetric  bool   `db:"is_symmetric"`
	Category     string `db:"category"`
	CreatedAt    string `db:"created_at"`
}

func (r linkTypeRow) linkType() app.LinkType {
	return app.LinkType{ID: r.ID, WorkspaceID: r.WorkspaceID, Key: r.Key, Title: r.Title, InverseTitle: r.InverseTitle,
		IsSymmetric: r.IsSymmetric, Category: r.Category, CreatedAt: parseTime(r.CreatedAt)}
}

// LinkTypes lists a workspace's link types in creation order.
func (t *Tx) LinkTypes(ctx context.Context, workspaceID string) ([]app.LinkType, error) {
	return linkTypes.entries(ctx, t, workspaceID)
}

// Tags returns up to f.Limit names of the tags f admits, in name order,
// and how many it admits.
func (t *Tx) Tags(ctx context.Context, f app.TagFilter) (app.TagSummary, error) {
	var out app.TagSummary
	where, args := tagWhere(f)
	if err := t.tx.GetContext(ctx, &out.Total, `SELECT count(*) FROM tags g WHERE `+where, args...); err != nil {
		return out, mapErr(err)
	}
	out.Names = []string{}
	if err := t.tx.SelectContext(ctx, &out.Names, `SELECT name FROM tags g WHERE `+where+` ORDER BY name LIMIT ?`,
		append(args, f.Limit)...); err != nil {
		return out, mapErr(err)
	}
	out.HasMore = out.Total > len(out.Names)
	return out, nil
}

// tagWhere is the condition for the tags f admits: in the workspace and,
// unless the reader reads every project, declared, applied to nothing or
// applied to an item in a readable project. Each tag's applications are
// read from the tag (tagApplied).
func tagWhere(f app.TagFilter) (string, []any) {
	return tagWhereBy(f, false)
}

// tagWhereBy is tagWhere with the search for an application in a
// readable project driven from the readable projects' items when
// fromReader is set (tagAppliedFromReader), from the tag's applications
// when not (tagApplied): the same condition, each plan reading what the
// other would skip.
func tagWhereBy(f app.TagFilter, fromReader bool) (string, []any) {
	if f.AllReadable {
		return "g.workspace_id = ? AND g.deleted_at IS NULL", []any{f.WorkspaceID}
	}
	applied := tagApplied
	if fromReader {
		applied = tagAppliedFromReader
	}
	return `g.workspace_id = ?1 AND g.deleted_at IS NULL AND (g.declared = 1 OR ` + applied + `
		OR (NOT EXISTS (SELECT 1 FROM task_tags tt WHERE tt.tag_id IN ` + tagOrMerged("g.id") + `)
			AND NOT EXISTS (SELECT 1 FROM document_tags dt WHERE dt.tag_id IN ` + tagOrMerged("g.id") + `)))`, []any{f.WorkspaceID, f.Readable}
}

// tagApplied is the condition that the tag g, or one merged into it, is
// applied to a task or document in a project of the JSON array ?2, read
// from the tag's applications (task_tags_tag, document_tags_tag): as many
// rows as the tag has applications outside those projects.
var tagApplied = `(EXISTS (SELECT 1 FROM task_tags tt CROSS JOIN tasks k ON k.id = tt.task_id
			WHERE tt.tag_id IN ` + tagOrMerged("g.id") + ` AND k.project_id IN (SELECT value FROM json_each(?2)))
		OR EXISTS (SELECT 1 FROM document_tags dt CROSS JOIN documents d ON d.id = dt.document_id
			WHERE dt.tag_id IN ` + tagOrMerged("g.id") + ` AND d.project_id IN (SELECT value FROM json_each(?2))))`

// tagAppliedFromReader is tagApplied read from the items of the projects
// of ?2 (tasks_project, documents_project), each probed for the tag by
// its key: as many rows as those projects hold items without the tag.
var tagAppliedFromReader = `(EXISTS (SELECT 1 FROM json_each(?2) p CROSS JOIN tasks k ON k.project_id = p.value
			CROSS JOIN task_tags tt ON tt.task_id = k.id WHERE tt.tag_id IN ` + tagOrMerged("g.id") + `)
		OR EXISTS (SELECT 1 FROM json_each(?2) p CROSS JOIN documents d ON d.project_id = p.value
			CROSS JOIN document_tags dt ON dt.document_id = d.id WHERE dt.tag_id IN ` + tagOrMerged("g.id") + `))`

// StatusByID reads one status.
func (t *Tx) StatusByID(ctx context.Context, id string) (app.Status, error) {
	return statuses.one(ctx, t, id)
}

// UpdateStatus stores a status's key, label, position and default flag.
func (t *Tx) UpdateStatus(ctx context.Context, st *app.Status) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE statuses SET key = ?, label = ?, position = ?, is_default = ?, updated_at = ? WHERE id = ?`,
		st.Key, st.Label, st.Position, st.IsDefault, fmtTime(st.UpdatedAt), st.ID)
	return mapErr(err)
}

// DeleteStatus removes a status.
func (t *Tx) DeleteStatus(ctx context.Context, id string) error { return statuses.delete(ctx, t, id) }

// StatusUses counts the tasks, projects and documents in a status, the trash included.
func (t *Tx) StatusUses(ctx context.Context, id string) (int, error) {
	return statuses.count(ctx, t, id)
}

// LinkTypeByID reads one link type.
func (t *Tx) LinkTypeByID(ctx context.Context, id string) (app.LinkType, error) {
	return linkTypes.one(ctx, t, id)
}

// UpdateLinkType stores a link type's key, titles and category.
func (t *Tx) UpdateLinkType(ctx context.Context, lt *app.LinkType) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE link_types SET key = ?, title = ?, inverse_title = ?, category = ? WHERE id = ?`,
		lt.Key, lt.Title, lt.InverseTitle, lt.Category, lt.ID)
	return mapErr(err)
}

// DeleteLinkType removes a link type.
func (t *Tx) DeleteLinkType(ctx context.Context, id string) error {
	return linkTypes.delete(ctx, t, id)
}

// LinkTypeUses counts the links of a type.
func (t *Tx) LinkTypeUses(ctx context.Context, id string) (int, error) {
	return linkTypes.count(ctx, t, id)
}

type tagRow struct {
	ID          string         `db:"id"`
	WorkspaceID string         `db:"workspace_id"`
	Name        string         `db:"name"`
	Description sql.NullString `db:"description"`
	Declared    bool           `db:"declared"`
}

func (r tagRow) tag() app.Tag {
	return app.Tag{ID: r.ID, WorkspaceID: r.WorkspaceID, Name: r.Name, Description: r.Description.String, Declared: r.Declared}
}

// TagByID reads one tag.
func (t *Tx) TagByID(ctx context.Context, id string) (app.Tag, error) {
	var r tagRow
	err := t.tx.GetContext(ctx, &r, `SELECT id, workspace_id, name, description, declared FROM tags WHERE id = ? AND deleted_at IS NULL`, id)
	return r.tag(), mapErr(err)
}

// TagByName reads a tag by name, case-insensitively.
func (t *Tx) TagByName(ctx context.Context, workspaceID, name string) (app.Tag, error) {
	var r tagRow
	err := t.tx.GetContext(ctx, &r, `SELECT id, workspace_id, name, description, declared FROM tags WHERE workspace_id = ? AND name = ?
		AND deleted_at IS NULL`, workspaceID, name)
	return r.tag(), mapErr(err)
}

// TagsByName reads the tags of a workspace with these names, compared
// case-insensitively, in one statement; a name no tag holds is left out.
func (t *Tx) TagsByName(ctx context.Context, workspaceID string, names []string) ([]app.Tag, error) {
	var rows []tagRow
	err := t.tx.SelectContext(ctx, &rows, `SELECT id, workspace_id, name, description, declared FROM tags
		WHERE workspace_id = ? AND name IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL`, workspaceID, jsonText(names))
	out := make([]app.Tag, len(rows))
	for i, r := range rows {
		out[i] = r.tag()
	}
	return out, mapErr(err)
}

// InsertTags stores tags in one statement, in the order given.
func (t *Tx) InsertTags(ctx context.Context, gs []app.Tag) error {
	rows := make([][5]any, len(gs))
	for i, g := range gs {
		rows[i] = [5]any{g.ID, g.WorkspaceID, g.Name, nullStr(g.Description), g.Declared}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO tags (id, workspace_id, name, description, declared, created_at)
		SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, ? FROM json_each(?) j ORDER BY j.key`,
		fmtTime(t.now), jsonText(rows))
	return mapErr(err)
}

// InsertTag stores a tag.
func (t *Tx) InsertTag(ctx context.Context, g *app.Tag) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO tags (id, workspace_id, name, description, declared, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		g.ID, g.WorkspaceID, g.Name, nullStr(g.Description), g.Declared, fmtTime(t.now))
	return mapErr(err)
}

// UpdateTag stores a tag's name, meaning and whether it was declared.
func (t *Tx) UpdateTag(ctx context.Context, g *app.Tag) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE tags SET name = ?, description = ?, declared = ? WHERE id = ?`,
		g.Name, nullStr(g.Description), g.Declared, g.ID)
	return mapErr(err)
}

// TagSeen reports whether f admits the tag with this id. Whether the tag
// is applied in a readable project is read from whichever side is
// smaller: the tag's applications, or the items of the reader's projects
// (tagWhereBy). A rename or a declaration onto the name of a tag on
// 100,000 items asks this of a reader who reads a few projects, and read
// from the tag that took 270 ms of the writer (BENCHMARKS.md, "Tag merges
// and subtree jobs: the request's own transaction").
func (t *Tx) TagSeen(ctx context.Context, f app.TagFilter, id string) (bool, error) {
	fromReader := false
	if !f.AllReadable {
		var err error
		if fromReader, err = t.fewerReadable(ctx, f.Readable, id); err != nil {
			return false, err
		}
	}
	query, args := tagSeenSQL(f, fromReader, id)
	var seen bool
	err := t.tx.GetContext(ctx, &seen, query, args...)
	return seen, mapErr(err)
}

// tagSeenSQL is TagSeen's statement, read by either plan.
func tagSeenSQL(f app.TagFilter, fromReader bool, id string) (string, []any) {
	where, args := tagWhereBy(f, fromReader)
	return `SELECT EXISTS (SELECT 1 FROM tags g WHERE ` + where + ` AND g.id = ?)`, append(args, id)
}

// fewerReadable reports whether the projects of the JSON array readable
// hold fewer items than the tag with this id (and those merged into it)
// has applications. Both are counted from their indexes up to a cap that
// grows until one side falls short of it, so the counting reads about as
// many index entries as the smaller side holds.
func (t *Tx) fewerReadable(ctx context.Context, readable, id string) (bool, error) {
	for limit := 1024; ; limit *= 8 {
		var n struct {
			Applied  int `db:"applied"`
			Readable int `db:"readable"`
		}
		if err := t.tx.GetContext(ctx, &n, fewerReadableSQL, id, readable, limit); err != nil {
			return false, mapErr(err)
		}
		if n.Applied < limit || n.Readable < limit {
			return n.Readable < n.Applied, nil
		}
	}
}

// fewerReadableSQL counts, up to ?3 each, the applications of the tag ?1
// and of those merged into it, and the items of the projects of the JSON
// array ?2.
var fewerReadableSQL = `SELECT
	(SELECT count(*) FROM (SELECT 1 FROM task_tags WHERE tag_id IN ` + tagOrMerged("?1") + ` LIMIT ?3))
	+ (SELECT count(*) FROM (SELECT 1 FROM document_tags WHERE tag_id IN ` + tagOrMerged("?1") + ` LIMIT ?3)) AS applied,
	(SELECT count(*) FROM (SELECT 1 FROM tasks WHERE project_id IN (SELECT value FROM json_each(?2)) LIMIT ?3))
	+ (SELECT count(*) FROM (SELECT 1 FROM documents WHERE project_id IN (SELECT value FROM json_each(?2)) LIMIT ?3)) AS readable`

// HideTag marks a tag deleted and frees its name, in one statement: every
// reader leaves out a tag with deleted_at set, so the tag is gone at once,
// while its applications are taken off afterwards by PurgeTag. deletion is
// kept with it for the app (the event to file as the work goes). The name
// it takes is no tag's ('#' starts none), and unlike one starting with
// char(0), which NOCASE compares equal to any other such, it leaves
// another tag free to be hidden before the worker has purged this one.
func (t *Tx) HideTag(ctx context.Context, id, deletion string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE tags SET deleted_at = ?, deletion = ?, name = '#' || id
		WHERE id = ? AND deleted_at IS NULL`, fmtTime(t.now), deletion, id)
	return mapErr(err)
}

// MergeTagInto hides the tag from as HideTag does, merged into the tag
// into: every read counts its applications as into's until PurgeTag has
// moved them. Tags merged into from before are merged into into now, so
// that no read follows more than one step.
func (t *Tx) MergeTagInto(ctx context.Context, from, into, deletion string) error {
	if err := t.HideTag(ctx, from, deletion); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, `UPDATE tags SET merged_into = ?1 WHERE id = ?2 OR merged_into = ?2`, into, from)
	return mapErr(err)
}

// TagUsed reports whether any item, live or in the trash, carries the tag
// or one merged into it.
func (t *Tx) TagUsed(ctx context.Context, id string) (bool, error) {
	var used bool
	err := t.tx.GetContext(ctx, &used, `SELECT EXISTS (SELECT 1 FROM task_tags WHERE tag_id IN `+tagOrMerged("?1")+`)
		OR EXISTS (SELECT 1 FROM document_tags WHERE tag_id IN `+tagOrMerged("?1")+`)`, id)
	return used, mapErr(err)
}

// NextHiddenTag reads the oldest tag marked deleted (HideTag) whose
// applications are not all taken off yet, and what HideTag kept with it;
// its ID is "" when there is none.
func (t *Tx) NextHiddenTag(ctx context.Context) (app.Tag, string, error) {
	var r struct {
		tagRow
		Deletion sql.NullString `db:"deletion"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT id, workspace_id, name, description, declared, deletion FROM tags
		WHERE deleted_at IS NOT NULL ORDER BY deleted_at, id LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return app.Tag{}, "", nil
	}
	return r.tag(), r.Deletion.String, mapErr(err)
}

// PurgeTag takes at most limit applications of a hidden tag off the items
// carrying them, tasks first, and answers the projects of those items; the
// step that finds fewer than limit left removes the tag itself. A tag
// merged into another has each application moved onto that tag (an item
// carrying both keeps one), unless that one is deleted too.
func (t *Tx) PurgeTag(ctx context.Context, id string, limit int) ([]string, error) {
	projects := []string{}
	n := 0
	for _, j := range [][3]string{{"task_tags", "task_id", "tasks"}, {"document_tags", "document_id", "documents"}} {
		chunk := `SELECT ` + j[1] + ` FROM ` + j[0] + ` WHERE tag_id = ?1 LIMIT ?2`
		var ps []string
		if err := t.tx.SelectContext(ctx, &ps, `SELECT DISTINCT x.project_id FROM `+j[2]+` x WHERE x.id IN (`+chunk+`)`,
			id, limit-n); err != nil {
			return nil, mapErr(err)
		}
		projects = append(projects, ps...)
		if _, err := t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO `+j[0]+` (`+j[1]+`, tag_id) SELECT x.`+j[1]+`, m.id
			FROM (`+chunk+`) x JOIN tags g ON g.id = ?1 JOIN tags m ON m.id = g.merged_into AND m.deleted_at IS NULL`, id, limit-n); err != nil {
			return nil, mapErr(err)
		}
		res, err := t.tx.ExecContext(ctx, `DELETE FROM `+j[0]+` WHERE tag_id = ?1 AND `+j[1]+` IN (`+chunk+`)`, id, limit-n)
		if err != nil {
			return nil, mapErr(err)
		}
		k, _ := res.RowsAffected()
		if n += int(k); n >= limit {
			return projects, nil
		}
	}
	_, err := t.tx.ExecContext(ctx, `DELETE FROM tags WHERE id = ? AND deleted_at IS NOT NULL`, id)
	return projects, mapErr(err)
}

// TagEventProjects lists the projects in which an event with this action
// was filed on the tag.
func (t *Tx) TagEventProjects(ctx context.Context, id, action string) ([]string, error) {
	out := []string{}
	err := t.tx.SelectContext(ctx, &out, `SELECT DISTINCT project_id FROM events WHERE entity_id = ? AND action = ?
		AND project_id IS NOT NULL`, id, action)
	return out, mapErr(err)
}

// TagPage lists the tags f admits by lower-cased name after f.After; both
// sides are lowered by SQLite so that the order and the cursor agree.
func (t *Tx) TagPage(ctx context.Context, f app.TagFilter) ([]app.Tag, error) {
	var rows []tagRow
	where, args := tagWhere(f)
	err := t.tx.SelectContext(ctx, &rows, `SELECT id, workspace_id, name, description, declared FROM tags g
		WHERE `+where+` AND lower(name) > lower(?) ORDER BY lower(name) LIMIT ?`, append(args, f.After, f.Limit)...)
	out := make([]app.Tag, len(rows))
	for i, r := range rows {
		out[i] = r.tag()
	}
	return out, mapErr(err)
}

// QueueTagNotice keeps event, a change to the tag as the app wrote it, to
// be filed by the worker in each project the tag's items are in
// (NextTagNotice, ReadTagNotice, FileTagNotice).
func (t *Tx) QueueTagNotice(ctx context.Context, tagID, event string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO tag_notices (tag_id, event) VALUES (?, ?)`, tagID, event)
	return mapErr(err)
}

// NextTagNotice reads the oldest notice not filed everywhere yet, of the
// tag with this id or of any tag when it is ""; its Seq is 0 when there is
// none.
func (t *Tx) NextTagNotice(ctx context.Context, tagID string) (app.TagNotice, error) {
	var r struct {
		Seq   int64  `db:"seq"`
		TagID string `db:"tag_id"`
		Event string `db:"event"`
		Filed string `db:"filed"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT seq, tag_id, event, filed FROM tag_notices WHERE ?1 IN ('', tag_id)
		ORDER BY seq LIMIT 1`, tagID)
	if errors.Is(err, sql.ErrNoRows) {
		return app.TagNotice{}, nil
	}
	if err != nil {
		return app.TagNotice{}, mapErr(err)
	}
	n := app.TagNotice{Seq: r.Seq, TagID: r.TagID, Event: r.Event}
	return n, json.Unmarshal([]byte(r.Filed), &n.Filed)
}

// ReadTagNotice reads the projects of the next limit items carrying the
// notice's tag, tasks then documents, each in id order after the last one
// read, and moves the notice past them; it reports whether it has read
// them all.
func (t *Tx) ReadTagNotice(ctx context.Context, seq int64, limit int) ([]string, bool, error) {
	var at struct {
		TagID string         `db:"tag_id"`
		Task  string         `db:"after_task"`
		Doc   sql.NullString `db:"after_document"`
	}
	if err := t.tx.GetContext(ctx, &at, `SELECT tag_id, after_task, after_document FROM tag_notices WHERE seq = ?`, seq); err != nil {
		return nil, false, mapErr(err)
	}
	type hit struct {
		ID      string `db:"id"`
		Project string `db:"project_id"`
	}
	var hits []hit
	col, q := "after_task", `SELECT tt.task_id AS id, k.project_id FROM task_tags tt JOIN tasks k ON k.id = tt.task_id
		WHERE tt.tag_id = ? AND tt.task_id > ? ORDER BY tt.task_id LIMIT ?`
	after := at.Task
	if at.Doc.Valid {
		col, q = "after_document", `SELECT dt.document_id AS id, d.project_id FROM document_tags dt JOIN documents d ON d.id = dt.document_id
			WHERE dt.tag_id = ? AND dt.document_id > ? ORDER BY dt.document_id LIMIT ?`
		after = at.Doc.String
	}
	if err := t.tx.SelectContext(ctx, &hits, q, at.TagID, after, limit); err != nil {
		return nil, false, mapErr(err)
	}
	projects := []string{}
	for _, h := range hits {
		if !slices.Contains(projects, h.Project) {
			projects = append(projects, h.Project)
		}
	}
	if len(hits) == limit {
		_, err := t.tx.ExecContext(ctx, `UPDATE tag_notices SET `+col+` = ? WHERE seq = ?`, hits[len(hits)-1].ID, seq)
		return projects, false, mapErr(err)
	}
	// Fewer than limit: this kind of item is read to its end.
	if at.Doc.Valid {
		return projects, true, nil
	}
	_, err := t.tx.ExecContext(ctx, `UPDATE tag_notices SET after_document = '' WHERE seq = ?`, seq)
	return projects, false, mapErr(err)
}

// FileTagNotice records the projects the notice has been filed in, or
// removes it when done.
func (t *Tx) FileTagNotice(ctx context.Context, seq int64, filed []string, done bool) error {
	if done {
		_, err := t.tx.ExecContext(ctx, `DELETE FROM tag_notices WHERE seq = ?`, seq)
		return mapErr(err)
	}
	b, err := json.Marshal(filed)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `UPDATE tag_notices SET filed = ? WHERE seq = ?`, string(b), seq)
	return mapErr(err)
}
