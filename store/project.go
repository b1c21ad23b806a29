package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
	"time"

	"tend/app"
)

// projectTable is the projects table, column by column, in the schema's
// order.
var projectTable = newItemTable("projects", []column[app.Project]{
	col("id", created, text(func(p *app.Project) *string { return &p.ID })),
	col("workspace_id", created, text(func(p *app.Project) *string { return &p.WorkspaceID })),
	col("key", created, text(func(p *app.Project) *string { return &p.Key })),
	col("title", written, text(func(p *app.Project) *string { return &p.Title })),
	col("description", written, nullText(func(p *app.Project) *string { return &p.Description })),
	col("parent_id", written, nullText(func(p *app.Project) *string { return &p.ParentID })),
	col("visibility", written, text(func(p *app.Project) *string { return &p.Visibility })),
	col("is_inbox", created, flag(func(p *app.Project) *bool { return &p.IsInbox })),
	col("owner_id", created, nullText(func(p *app.Project) *string { return &p.OwnerID })),
	col("status_id", written, text(func(p *app.Project) *string { return &p.StatusID })),
	col("colour", written, nullText(func(p *app.Project) *string { return &p.Colour })),
	col("archived_at", readOnly, optStamp(func(p *app.Project) **time.Time { return &p.ArchivedAt })),
	col("created_at", created, stamp(func(p *app.Project) *time.Time { return &p.CreatedAt })),
	col("updated_at", written, stamp(func(p *app.Project) *time.Time { return &p.UpdatedAt })),
	// Moved only by SetProjectsDeleted.
	col("deleted_at", created, optStamp(func(p *app.Project) **time.Time { return &p.DeletedAt })),
	col("version", written, integer(func(p *app.Project) *int { return &p.Version })),
	col("settings", written, settingsField),
	col("hidden_statuses", written, hiddenStatusesField),
	col("created_by", created, nullText(func(p *app.Project) *string { return &p.CreatedBy })),
}, map[string]string{
	"template": "in the schema since migration 0001; nothing reads or writes it",
})

// Most projects hold neither settings nor hidden statuses; a read skips
// the decoder for the empty documents (scopes read every project).
var (
	settingsField = field[app.Project]{
		dest: func(p *app.Project) sql.Scanner {
			return jsonDest[map[string]any]{&p.Settings, "{}", func() map[string]any { return map[string]any{} }}
		},
		value: func(p *app.Project) any { return settingsText(p.Settings) },
	}
	hiddenStatusesField = field[app.Project]{
		dest: func(p *app.Project) sql.Scanner {
			return jsonDest[[]string]{&p.HiddenStatuses, "[]", func() []string { return []string{} }}
		},
		value: func(p *app.Project) any { return listText(p.HiddenStatuses) },
	}
)

// jsonDest reads a JSON document stored as text into p, starting from
// fresh(); the empty document, written as empty, skips the decoder.
type jsonDest[T any] struct {
	p     *T
	empty string
	fresh func() T
}

func (d jsonDest[T]) Scan(src any) error {
	var s string
	if err := (textDest{&s}).Scan(src); err != nil {
		return err
	}
	*d.p = d.fresh()
	if s != d.empty {
		_ = json.Unmarshal([]byte(s), d.p)
	}
	return nil
}

// projectReader reads a project's row.
var projectReader = newRowReader(projectTable.cols)

// scopeReader reads a row of scopeProjects: the project and the account's
// membership and own role there.
var scopeReader = newRowReader(within(projectTable.cols, func(s *app.ScopeProject) *app.Project { return &s.Project }),
	[]column[app.ScopeProject]{
		computed("member", "m.user_id IS NOT NULL", flag(func(s *app.ScopeProject) *bool { return &s.Member })),
		computed("own_role", "r.role", text(func(s *app.ScopeProject) *string { return &s.Role })),
	})

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func settingsText(m map[string]any) string {
	if m == nil {
		return "{}"
	}
	return jsonText(m)
}

func listText(l []string) string {
	if l == nil {
		return "[]"
	}
	return jsonText(l)
}

// InsertProject stores a project.
func (t *Tx) InsertProject(ctx context.Context, p *app.Project) error {
	_, err := projectTable.execInsert(ctx, t, p)
	return err
}

// UpdateProject stores a project's changeable fields.
func (t *Tx) UpdateProject(ctx context.Context, p *app.Project) error {
	return projectTable.execUpdate(ctx, t, p)
}

// projectSelect reads projects; a condition follows.
var projectSelect = "SELECT " + projectTable.selectList("p") + " FROM projects p WHERE "

func (t *Tx) getProject(ctx context.Context, where string, args ...any) (app.Project, error) {
	out, err := projectReader.read(ctx, t, projectSelect+where, args, 1, nil)
	if err == nil && len(out) == 0 {
		err = mapErr(sql.ErrNoRows)
	}
	if err != nil {
		return app.Project{}, err
	}
	return out[0], nil
}

// ProjectByID reads a project by id.
func (t *Tx) ProjectByID(ctx context.Context, id string) (app.Project, error) {
	return t.getProject(ctx, "p.id = ?", id)
}

// ProjectByKey reads a project by its key within a workspace.
func (t *Tx) ProjectByKey(ctx context.Context, workspaceID, key string) (app.Project, error) {
	return t.getProject(ctx, "p.workspace_id = ? AND p.key = ?", workspaceID, key)
}

// ScopeProjects lists every project of a workspace, trashed ones too, each
// with the account's membership and own role there. Every scoped request
// runs it, so it scans by hand rather than through sqlx's reflection, and
// answers from the cache while scope_rev stands: the cached rows themselves
// with their map of resolved trees, so the app resolves a scope once per
// revision. A write that changed the projects in its own transaction has
// moved scope_rev past anything cached, so it misses and reads its rows.
func (t *Tx) ScopeProjects(ctx context.Context, workspaceID, userID string) (app.ScopeRows, error) {
	var rev, vocabRev int64
	if err := t.tx.QueryRowxContext(ctx, `SELECT scope_rev, vocab_rev FROM workspaces WHERE id = ?`, workspaceID).Scan(&rev, &vocabRev); err != nil {
		return app.ScopeRows{}, mapErr(err)
	}
	t.tx.rememberVocab(workspaceID, vocabRev)
	key := workspaceID + "\x00" + userID
	if rows, ok := t.db.scopes.get(key, rev); ok {
		return rows, nil
	}
	out, err := t.scopeProjects(ctx, workspaceID, userID)
	if err == nil {
		t.db.scopes.keep(t, key, rev, app.ScopeRows{Projects: append([]app.ScopeProject(nil), out...), Trees: &sync.Map{}})
	}
	return app.ScopeRows{Projects: out}, err
}

func (t *Tx) scopeProjects(ctx context.Context, workspaceID, userID string) ([]app.ScopeProject, error) {
	return scopeReader.read(ctx, t, scopeSelect, []any{userID, userID, workspaceID}, 0, nil)
}

// scopeSelect reads every project of a workspace with an account's
// membership and own role there.
var scopeSelect = "SELECT " + selectList("p", scopeReader.cols) + ` FROM projects p
	LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = ?
	LEFT JOIN project_roles r ON r.project_id = p.id AND r.user_id = ?
	WHERE p.workspace_id = ?`

// projectsUpSQL walks from a project up through its parents (walk.go).
const projectsUpSQL = `WITH RECURSIVE up(id, next) AS (SELECT id, parent_id FROM projects WHERE id = ?
	UNION SELECT p.id, p.parent_id FROM projects p JOIN up ON p.id = up.next) SELECT id, next FROM up`

// ProjectAncestors lists the ids above a project, nearest first.
func (t *Tx) ProjectAncestors(ctx context.Context, id string) ([]string, error) {
	var hops []hop
	err := t.tx.SelectContext(ctx, &hops, projectsUpSQL, id)
	return nearestFirst(id, hops), mapErr(err)
}

// SetProjectsDeleted sets (or with nil clears) deleted_at on projects.
func (t *Tx) SetProjectsDeleted(ctx context.Context, ids []string, at *time.Time, now time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE projects SET deleted_at = ?, updated_at = ?, version = version + 1
		WHERE id IN (SELECT value FROM json_each(?))`, fmtTimePtr(at), fmtTime(now), jsonText(ids))
	return mapErr(err)
}

// ProjectRoles lists the roles held in one project.
func (t *Tx) ProjectRoles(ctx context.Context, projectID string) ([]app.ProjectRole, error) {
	var rows []struct {
		ProjectID string `db:"project_id"`
		UserID    string `db:"user_id"`
		Role      string `db:"role"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT project_id, user_id, role FROM project_roles WHERE project_id = ?`, projectID)
	out := make([]app.ProjectRole, len(rows))
	for i, r := range rows {
		out[i] = app.ProjectRole{ProjectID: r.ProjectID, UserID: r.UserID, Role: r.Role}
	}
	return out, mapErr(err)
}

// SetProjectRole gives or changes an account's role in a project.
func (t *Tx) SetProjectRole(ctx context.Context, r app.ProjectRole, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO project_roles (project_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, user_id) DO UPDATE SET role = excluded.role`, r.ProjectID, r.UserID, r.Role, fmtTime(at))
	return mapErr(err)
}

// DeleteProjectRole removes an account's role in a project.
func (t *Tx) DeleteProjectRole(ctx context.Context, projectID, userID string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM project_roles WHERE project_id = ? AND user_id = ?`, projectID, userID)
	return mapErr(err)
}

// ProjectMembers lists who has sight of a project, owner's row first.
func (t *Tx) ProjectMembers(ctx context.Context, projectID string) ([]app.ProjectMember, error) {
	var rows []struct {
		userRow
		JoinedAt string `db:"joined_at"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT m.created_at AS joined_at, q.* FROM project_members m
		JOIN (`+userSelect+`) q ON q.id = m.user_id JOIN projects p ON p.id = m.project_id
		WHERE m.project_id = ? ORDER BY (q.id = p.owner_id) DESC, m.created_at, q.seq`, projectID)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.ProjectMember, len(rows))
	for i, r := range rows {
		out[i] = app.ProjectMember{ProjectID: projectID, User: r.user(), CreatedAt: parseTime(r.JoinedAt)}
	}
	return out, nil
}

// InsertProjectMember gives an account sight of a project; existing is a conflict.
func (t *Tx) InsertProjectMember(ctx context.Context, projectID, userID string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO project_members (project_id, user_id, created_at) VALUES (?, ?, ?)`,
		projectID, userID, fmtTime(at))
	return mapErr(err)
}

// DeleteProjectMember removes a member row.
func (t *Tx) DeleteProjectMember(ctx context.Context, projectID, userID string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM project_members WHERE project_id = ? AND user_id = ?`, projectID, userID)
	return mapErr(err)
}

// ProjectItemCount counts live tasks filed in a project.
func (t *Tx) ProjectItemCount(ctx context.Context, projectID string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM tasks t WHERE project_id = ? AND deleted_at IS NULL AND `+notPending("t"), projectID)
	return n, mapErr(err)
}

// OpenTaskCounts counts the open, live tasks of each project among
// readable (a JSON array of ids), by project id, from tasks_open_project alone.
func (t *Tx) OpenTaskCounts(ctx context.Context, workspaceID, readable string) (map[string]int, error) {
	jobs, err := t.anyTaskJob(ctx)
	if err != nil {
		return nil, err
	}
	pending := ""
	if jobs {
		pending = " AND " + notPending("t")
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT project_id, count(*) FROM tasks t INDEXED BY tasks_open_project
		WHERE workspace_id = ? AND completed_at IS NULL AND deleted_at IS NULL
			AND project_id IN (SELECT value FROM json_each(?))`+pending+`
		GROUP BY project_id`, workspaceID, readable)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, mapErr(err)
		}
		out[id] = n
	}
	return out, mapErr(rows.Err())
}
