package web

import (
	"net/http"

	"tend/app"
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
	return backupJSON{Name: b.Name, Profile: orNull(b.Profile), SchemaHead: b.SchemaHead, SizeBytes: b.SizeBytes,
		TakenAt: stamp(b.TakenAt), TakenFor: orNull(b.TakenFor)}
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
	return writeJSON(w, http.StatusOK, map[string]any{"items": items})
}

func (s *Server) handleBackupCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in struct {
		Keep *int `json:"keep"`
	}
	if err := s.decodeJSON(w, r, &in, true); err != nil {
		return err
	}
	b, err := s.app.TakeBackup(r.Context(), a, in.Keep)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newBackupJSON(b))
}
