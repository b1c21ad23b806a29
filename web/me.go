package web

import (
	"net/http"

	"tend/app"
)

type meJSON struct {
	APIVersion          string                `json:"api_version"`
	InstanceVersion     *string               `json:"instance_version"`
	SchemaRevision      *string               `json:"schema_revision"`
	User                callerJSON            `json:"user"`
	Credential          *credentialJSON       `json:"credential"`
	InstancePermissions []string              `json:"instance_permissions"`
	ReaderTimezone      *string               `json:"reader_timezone"`
	Workspaces          []workspaceAccessJSON `json:"workspaces"`
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	me, err := s.app.Me(r.Context(), a)
	if err != nil {
		return err
	}
	out := meJSON{APIVersion: me.APIVersion, InstanceVersion: orNull(me.InstanceVersion), SchemaRevision: orNull(me.SchemaRevision),
		User: newCallerJSON(me.User), InstancePermissions: me.InstancePermissions, ReaderTimezone: orNull(me.ReaderTimezone),
		Workspaces: make([]workspaceAccessJSON, len(me.Workspaces))}
	if me.Credential != nil {
		c := newCredentialJSON(*me.Credential)
		out.Credential = &c
	}
	for i, ws := range me.Workspaces {
		out.Workspaces[i] = newWorkspaceAccess(ws)
	}
	return writeJSON(w, http.StatusOK, out)
}
