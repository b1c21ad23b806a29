package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

type instanceJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Timezone string `json:"timezone"`
}

func newInstanceJSON(in app.Instance) instanceJSON {
	return instanceJSON{ID: in.ID, Name: in.Name, Timezone: in.Timezone}
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
	inst, err := s.app.Instance(r.Context(), a)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newInstanceJSON(inst))
}

func (s *Server) handleInstanceUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.InstanceUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	inst, err := s.app.UpdateInstance(r.Context(), a, in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newInstanceJSON(inst))
}

func (s *Server) handleInstanceWorkspaces(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws, err := s.app.InstanceWorkspaces(r.Context(), a)
	if err != nil {
		return err
	}
	items := make([]workspaceOnInstanceJSON, len(ws))
	for i, x := range ws {
		owners := x.Owners
		if owners == nil {
			owners = []string{}
		}
		items[i] = workspaceOnInstanceJSON{ID: x.ID, Slug: x.Slug, Name: x.Name, Timezone: x.Timezone, Members: x.Members,
			Owners: owners, CreatedAt: wire.Stamp(x.CreatedAt), DeletedAt: wire.StampPtr(x.DeletedAt)}
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}
