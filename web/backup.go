package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// backupJSON describes a backup by name only: no server path is reported.
type backupJSON struct {
	Name       string  `json:"name"`
	Profile    *string `json:"profile"`
	SchemaHead string  `json:"schema_head"`
	SizeBytes  int64   `json:"size_bytes"`
	TakenAt    string  `json:"taken_at"`
	TakenFor   *string `json:"taken_for"`
}

func newBackupJSON(b app.Backup) backupJSON {
	return backupJSON{Name: b.Name, Profile: wire.OrNull(b.Profile), SchemaHead: b.SchemaHead, SizeBytes: b.SizeBytes,
		TakenAt: wire.Stamp(b.TakenAt), TakenFor: wire.OrNull(b.TakenFor)}
}

func (s *Server) handleBackupList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, func(bs []app.Backup) map[string]any {
		return map[string]any{"items": wire.Map(bs, newBackupJSON)}
	})(s.app.Backups(r.Context(), a))
}

// backupCreateJSON is the body of POST /v1/admin/backups.
type backupCreateJSON struct {
	Keep *int `json:"keep"`
}

func (s *Server) handleBackupCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in backupCreateJSON) error {
	return reply(w, http.StatusCreated, newBackupJSON)(s.app.TakeBackup(r.Context(), a, in.Keep))
}
