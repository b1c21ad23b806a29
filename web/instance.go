package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

type instanceJSON struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Timezone        string `json:"timezone"`
	SessionIdleDays int    `json:"session_idle_days"`
}

func newInstanceJSON(in app.Instance) instanceJSON {
	return instanceJSON{ID: in.ID, Name: in.Name, Timezone: in.Timezone, SessionIdleDays: in.SessionIdleDays}
}

// workspaceOnInstanceJSON is a workspace in the administrator's instance-wide list.
type workspaceOnInstanceJSON struct {
	ID        string   `json:"id"`
	Slug      string   `json:"slug"`
	Name      string   `json:"name"`
	Timezone  string   `json:"timezone"`
	Members   int      `json:"members"`
	Owners    []string `json:"owners"`
	CreatedAt string   `json:"created_at"`
	DeletedAt *string  `json:"deleted_at"`
}

func (s *Server) handleInstanceGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newInstanceJSON)(s.app.Instance(r.Context(), a))
}

func (s *Server) handleInstanceUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.InstanceUpdate) error {
	return reply(w, http.StatusOK, newInstanceJSON)(s.app.UpdateInstance(r.Context(), a, in.App()))
}

func (s *Server) handleInstanceWorkspaces(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, func(x app.WorkspaceOnInstance) workspaceOnInstanceJSON {
		owners := x.Owners
		if owners == nil {
			owners = []string{}
		}
		return workspaceOnInstanceJSON{ID: x.ID, Slug: x.Slug, Name: x.Name, Timezone: x.Timezone, Members: x.Members,
			Owners: owners, CreatedAt: wire.Stamp(x.CreatedAt), DeletedAt: wire.StampPtr(x.DeletedAt)}
	})(s.app.InstanceWorkspaces(r.Context(), a))
}
