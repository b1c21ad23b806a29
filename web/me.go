package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

type meJSON struct {
	APIVersion          string                 `json:"api_version"`
	InstanceVersion     *string                `json:"instance_version"`
	SchemaRevision      *string                `json:"schema_revision"`
	User                wire.Caller            `json:"user"`
	Credential          *wire.Credential       `json:"credential"`
	InstancePermissions []string               `json:"instance_permissions"`
	ReaderTimezone      *string                `json:"reader_timezone"`
	Workspaces          []wire.WorkspaceAccess `json:"workspaces"`
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	me, err := s.app.Me(r.Context(), a)
	if err != nil {
		return err
	}
	out := meJSON{APIVersion: me.APIVersion, InstanceVersion: wire.OrNull(me.InstanceVersion), SchemaRevision: wire.OrNull(me.SchemaRevision),
		User: wire.NewCaller(me.User), InstancePermissions: me.InstancePermissions, ReaderTimezone: wire.OrNull(me.ReaderTimezone),
		Workspaces: make([]wire.WorkspaceAccess, len(me.Workspaces))}
	if me.Credential != nil {
		c := wire.NewCredential(*me.Credential)
		out.Credential = &c
	}
	for i, ws := range me.Workspaces {
		out.Workspaces[i] = wire.NewWorkspaceAccess(ws)
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}
