package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
	"time"

	"tend/app"
)

type projectRow struct {
	ID             string         `db:"id"`
	WorkspaceID    string         `db:"workspace_id"`
	Key            string         `db:"key"`
	Title          string         `db:"title"`
	Description    sql.NullString `db:"description"`
	ParentID       sql.NullString `db:"parent_id"`
	Visibility     string         `db:"visibility"`
	IsInbox        bool           `db:"is_inbox"`
	OwnerID        sql.NullString `db:"owner_id"`
	StatusID       string         `db:"status_id"`
	Colour         sql.NullString `db:"colour"`
	Settings       string         `db:"settings"`
	HiddenStatuses string         `db:"hidden_statuses"`
	CreatedBy      sql.NullString `db:"created_by"`
	CreatedAt      string         `db:"created_at"`
	UpdatedAt      string         `db:"updated_at"`
	DeletedAt      sql.NullString `db:"deleted_at"`
	ArchivedAt     sql.NullString `db:"archived_at"`
	Version        int            `db:"version"`
}

func (r projectRow) project() app.Project {
	p := app.Project{ID: r.ID, WorkspaceID: r.WorkspaceID, Key: r.Key, Title: r.Title, Description: r.Description.String,
		ParentID: r.ParentID.String, Visibility: r.Visibility, IsInbox: r.IsInbox, OwnerID: r.OwnerID.String,
		StatusID: r.StatusID, Colour: r.Colour.String, CreatedBy: r.CreatedBy.String, CreatedAt: parseTime(r.CreatedAt),
		UpdatedAt: parseTime(r.UpdatedAt), DeletedAt: parseTimePtr(r.DeletedAt), ArchivedAt: parseTimePtr(r.ArchivedAt),
		Version: r.Version, Settings: map[string]any{}, HiddenStatuses: []string{}}
	// Most projects hold neither settings nor hidden statuses; skip the
	// decoder for the empty documents (scopes read every project).
	if r.Settings != "{}" {
		_ = json.Unmarshal([]byte(r.Settings), &p.Settings)
	}
	if r.HiddenStatuses != "[]" {
		_ = json.Unmarshal([]byte(r.HiddenStatuses), &p.HiddenStatuses)
	}
	return p
}

const projectSelect = `SELECT id, workspace_id, key, title, description, parent_id, visibility, is_inbox, owner_id,
	status_id, colour, settings, hidden_statuses, created_by, created_at, updated_at, deleted_at, archived_at, version FROM projects`

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
	_, err := t.tx.ExecContext(ctx, `INSERT INTO projects (id, workspace_id, key, title, description, parent_id, visibility,
		is_inbox, owner_id, status_id, colour, settings, hidden_statuses, created_by, created_at, updated_at, deleted_at, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.WorkspaceID, p.Key, p.Title, nullStr(p.Description), nullStr(p.ParentID), p.Visibility, p.IsInbox,
		nullStr(p.OwnerID), p.StatusID, nullStr(p.Colour), settingsText(p.Settings), listText(p.HiddenStatuses),
		nullStr(p.CreatedBy), fmtTime(p.CreatedAt), fmtTime(p.UpdatedAt), fmtTimePtr(p.DeletedAt), p.Version)
	return mapErr(err)
}

// UpdateProject stores a project's changeable fields.
func (t *Tx) UpdateProject(ctx context.Context, p *app.Project) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE projects SET title = ?, description = ?, parent_id = ?, visibility = ?,
		status_id = ?, colour = ?, settings = ?, hidden_statuses = ?, updated_at = ?, version = ? WHERE id = ?`,
		p.Title, nullStr(p.Description), nullStr(p.ParentID), p.Visibility, p.StatusID, nullStr(p.Colour),
		settingsText(p.Settings), listText(p.HiddenStatuses), fmtTime(p.UpdatedAt), p.Version, p.ID)
	return mapErr(err)
}

func (t *Tx) getProject(ctx context.Context, where string, args ...any) (app.Project, error) {
	var r projectRow
	if err := t.tx.GetContext(ctx, &r, projectSelect+" WHERE "+where, args...); err != nil {
		return app.Project{}, mapErr(err)
	}
	return r.project(), nil
}

// ProjectByID reads a project by id.
func (t *Tx) ProjectByID(ctx context.Context, id string) (app.Project, error) {
	return t.getProject(ctx, "id = ?", id)
}

// ProjectByKey reads a project by its key within a workspace.
func (t *Tx) ProjectByKey(ctx context.Context, workspaceID, key string) (app.Project, error) {
	return t.getProject(ctx, "workspace_id = ? AND key = ?", workspaceID, key)
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
	if t.readOnly {
		t.vocabRevs = map[string]int64{workspaceID: vocabRev}
	}
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
	rows, err := t.tx.QueryContext(ctx, `SELECT p.id, p.workspace_id, p.key, p.title, p.description, p.parent_id,
		p.visibility, p.is_inbox, p.owner_id, p.status_id, p.colour, p.settings, p.hidden_statuses, p.created_by, p.created_at,
		p.updated_at, p.deleted_at, p.archived_at, p.version, m.user_id IS NOT NULL AS member, r.role AS own_role
		FROM projects p
		LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = ?
		LEFT JOIN project_roles r ON r.project_id = p.id AND r.user_id = ?
		WHERE p.workspace_id = ?`, userID, userID, workspaceID)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []app.ScopeProject
	for rows.Next() {
		var r projectRow
		var member bool
		var role sql.NullString
		if err := rows.Scan(&r.ID, &r.WorkspaceID, &r.Key, &r.Title, &r.Description, &r.ParentID, &r.Visibility, &r.IsInbox,
			&r.OwnerID, &r.StatusID, &r.Colour, &r.Settings, &r.HiddenStatuses, &r.CreatedBy, &r.CreatedAt, &r.UpdatedAt,
			&r.DeletedAt, &r.ArchivedAt, &r.Version, &member, &role); err != nil {
			return nil, mapErr(err)
		}
		out = append(out, app.ScopeProject{Project: r.project(), Member: member, Role: role.String})
	}
	return out, mapErr(rows.Err())
}

// ProjectAncestors lists the ids above a project, nearest first.
func (t *Tx) ProjectAncestors(ctx context.Context, id string) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, `WITH RECURSIVE up(id, parent, depth) AS (
		SELECT id, parent_id, 0 FROM projects WHERE id = ?
		UNION ALL SELECT p.id, p.parent_id, up.depth + 1 FROM projects p JOIN up ON p.id = up.parent WHERE up.depth < 64)
		SELECT id FROM up WHERE depth > 0 ORDER BY depth`, id)
	return ids, mapErr(err)
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
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM tasks WHERE project_id = ? AND deleted_at IS NULL`, projectID)
	return n, mapErr(err)
}

// OpenTaskCounts counts the open, live tasks of each project among
// readable (a JSON array of ids), by project id, from tasks_open_project alone.
func (t *Tx) OpenTaskCounts(ctx context.Context, workspaceID, readable string) (map[string]int, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT project_id, count(*) FROM tasks INDEXED BY tasks_open_project
		WHERE workspace_id = ? AND completed_at IS NULL AND deleted_at IS NULL
			AND project_id IN (SELECT value FROM json_each(?))
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
