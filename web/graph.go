package web

import (
	"context"
	"net/http"
	"strconv"

	"tend/app"
	"tend/web/wire"
)

type backlinkJSON struct {
	CreatedAt string  `json:"created_at"`
	Kind      string  `json:"kind"`
	Ref       int64   `json:"ref"`
	Title     string  `json:"title"`
	Via       *string `json:"via"`
}

type proposalJSON struct {
	Because   string       `json:"because"`
	Direction string       `json:"direction"`
	Label     string       `json:"label"`
	LinkType  string       `json:"link_type"`
	Other     wire.LinkEnd `json:"other"`
}

// itemListing answers an unpaged listing about the task or document in the
// path: fetch reads it, conv shapes each entry.
func itemListing[T, J any](entity string, fetch func(ctx context.Context, a app.Actor, workspace, entity, idOrRef string) ([]T, error),
	conv func(T) J) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return replyList(w, conv)(fetch(r.Context(), a, wsParam(r), entity, wire.Param(r, entity)))
	}
}

// handleBacklinks lists what mentions the task or document in the path.
func (s *Server) handleBacklinks(entity string) handlerFunc {
	return itemListing(entity, s.app.ItemBacklinks, func(b app.Backlink) backlinkJSON {
		return backlinkJSON{CreatedAt: wire.Stamp(b.CreatedAt), Kind: b.Kind, Ref: b.Ref, Title: b.Title, Via: wire.OrNull(b.Via)}
	})
}

// handleGoverning lists the documents in force that bind the item.
func (s *Server) handleGoverning(entity string) handlerFunc {
	return itemListing(entity, s.app.ItemGoverning, func(g app.Governing) wire.Governing {
		return wire.Governing{Document: wire.NewLinkEnd(g.Document), LinkType: g.LinkType}
	})
}

// handleProposedLinks suggests governing documents nobody has linked yet.
func (s *Server) handleProposedLinks(entity string) handlerFunc {
	return itemListing(entity, s.app.ItemProposedLinks, func(p app.Proposal) proposalJSON {
		return proposalJSON{Because: p.Because, Direction: p.Direction, Label: p.Label, LinkType: p.LinkType, Other: wire.NewLinkEnd(p.Other)}
	})
}

// handleTree walks what follows the item through sequencing links.
func (s *Server) handleTree(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		depth := 0
		if v := r.URL.Query().Get("depth"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return app.Invalidf("query.depth", "depth is a whole number, at least 1")
			}
			depth = n
		}
		return replyList(w, func(b app.Beneath) wire.Beneath {
			return wire.Beneath{Depth: b.Depth, Item: wire.NewLinkEnd(b.Item), Stopped: wire.OrNull(b.Stopped)}
		})(s.app.ItemTree(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), depth))
	}
}
