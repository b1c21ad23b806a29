package store

import (
	"context"
	"encoding/json"
)

// DavList finds the project of a list name an account's task app chose,
// and the project's workspace: not_found when the account has no such
// name, or its project is in the trash.
func (t *Tx) DavList(ctx context.Context, userID, name string) (projectID, workspaceID string, err error) {
	var r struct {
		ProjectID   string `db:"project_id"`
		WorkspaceID string `db:"workspace_id"`
	}
	err = t.tx.GetContext(ctx, &r, `SELECT l.project_id, p.workspace_id FROM dav_lists l JOIN projects p ON p.id = l.project_id
		WHERE l.user_id = ? AND l.name = ? AND p.deleted_at IS NULL`, userID, name)
	return r.ProjectID, r.WorkspaceID, mapErr(err)
}

// DavListNames reads the names an account's task apps chose for these
// projects, by project id.
func (t *Tx) DavListNames(ctx context.Context, userID string, projectIDs []string) (map[string]string, error) {
	out := map[string]string{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	ids, err := json.Marshal(projectIDs)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ProjectID string `db:"project_id"`
		Name      string `db:"name"`
	}
	if err := t.tx.SelectContext(ctx, &rows, `SELECT project_id, name FROM dav_lists
		WHERE user_id = ? AND project_id IN (SELECT value FROM json_each(?))`, userID, string(ids)); err != nil {
		return nil, mapErr(err)
	}
	for _, r := range rows {
		out[r.ProjectID] = r.Name
	}
	return out, nil
}

// PutDavList names a project for an account's task apps, replacing what
// the name named before (a project since trashed).
func (t *Tx) PutDavList(ctx context.Context, userID, name, projectID string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO dav_lists (user_id, name, project_id, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, name) DO UPDATE SET project_id = excluded.project_id, created_at = excluded.created_at`,
		userID, name, projectID, fmtTime(t.now))
	return mapErr(err)
}
