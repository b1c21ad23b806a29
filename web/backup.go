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
	bs, err := s.app.Backups(r.Context(), a)
	if err != nil {
		return err
	}
	items := make([]backupJSON, len(bs))
	for i, b := range bs {
		items[i] = newBackupJSON(b)
	}
	return wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
}

// backupCreateJSON is the body of POST /v1/admin/backups.
type backupCreateJSON struct {
	Keep *int `json:"keep"`
}

func (s *Server) handleBackupCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in backupCreateJSON
	if err := s.decodeJSON(w, r, &in, true); err != nil {
		return err
	}
	b, err := s.app.TakeBackup(r.Context(), a, in.Keep)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, newBackupJSON(b))
}
