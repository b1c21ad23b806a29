package app

import (
	"context"
	"time"
)

// Meta is the installation's vocabulary as one caller sees it, for GET /v1/meta.
type Meta struct {
	Instance           Instance
	Workspace          *WorkspaceView
	Workspaces         []WorkspaceView
	Statuses           map[string][]Status
	ItemTypes          map[string][]ItemType
	LinkTypes          []LinkType
	Tags               TagSummary
	VocabularyNotShown string
	ServerTime         time.Time
	SchemaRevision     string
	SearchBackend      string
	InstanceVersion    string
	PublicURL          string
}

// metaTagSample is how many tag names meta carries; GET /v1/tags pages the rest.
const metaTagSample = 100

// Meta answers GET /v1/meta. The vocabulary is a workspace's: the one named,
// or the only one the caller reaches. With several and none named it is left
// out and VocabularyNotShown says why.
func (s *Service) Meta(ctx context.Context, a Actor, workspace string) (Meta, error) {
	out := Meta{SchemaRevision: s.store.SchemaRevision(), SearchBackend: s.store.SearchBackend(), InstanceVersion: s.opts.Version, PublicURL: s.opts.PublicURL,
		Statuses: map[string][]Status{}, ItemTypes: map[string][]ItemType{}, LinkTypes: []LinkType{}, Workspaces: []WorkspaceView{}}
	for _, e := range EntityTypes {
		out.Statuses[e] = []Status{}
	}
	for _, e := range LinkableTypes {
		out.ItemTypes[e] = []ItemType{}
	}
	err := s.store.View(ctx, func(tx Tx) error {
		out.ServerTime = tx.Now()
		acc, err := accessOf(ctx, tx, a)
		if err != nil {
			return err
		}
		if out.Instance, err = tx.Instance(ctx); err != nil {
			return err
		}
		for _, w := range acc.live() {
			out.Workspaces = append(out.Workspaces, viewOf(w))
		}
		w, err := acc.pick(workspace)
		switch {
		case CodeOf(err) == CodeWorkspaceRequired:
			out.VocabularyNotShown = AsError(err).Detail
			return nil
		case CodeOf(err) == CodeNotFound && workspace == "":
			out.VocabularyNotShown = "you belong to no workspace yet, so there is no vocabulary to show"
			return nil
		case err != nil:
			return err
		}
		v := viewOf(w)
		out.Workspace = &v
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return err
		}
		return metaVocabulary(ctx, tx, sc, &out)
	})
	return out, err
}

func metaVocabulary(ctx context.Context, tx Tx, sc *scope, out *Meta) error {
	workspaceID := sc.ws.Workspace.ID
	sts, err := tx.Statuses(ctx, workspaceID)
	if err != nil {
		return err
	}
	for _, st := range sts {
		out.Statuses[st.EntityType] = append(out.Statuses[st.EntityType], st)
	}
	its, err := tx.ItemTypes(ctx, workspaceID)
	if err != nil {
		return err
	}
	for _, it := range its {
		out.ItemTypes[it.EntityType] = append(out.ItemTypes[it.EntityType], it)
	}
	if out.LinkTypes, err = tx.LinkTypes(ctx, workspaceID); err != nil {
		return err
	}
	out.Tags, err = tx.Tags(ctx, sc.tagFilter("", metaTagSample))
	return err
}
