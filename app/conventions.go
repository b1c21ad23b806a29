package app

import "context"

// maxConventionDocs bounds the documents service://conventions lists; a
// workspace with more binding documents than this has them paged by
// GET /v1/documents?status_category=in_progress.
const maxConventionDocs = 100

// Conventions is what is in force and binds work in one workspace: what an
// agent reads before it starts.
type Conventions struct {
	Workspace     Workspace
	Documents     []Document // in force, of a governing type, readable by the caller, by ref
	DocumentsMore bool
	Statuses      []Status   // task statuses in display order; readiness reads their category
	LinkTypes     []LinkType // sequencing ones hold work back (readiness), governing ones bind documents
}

// Conventions reads the workspace's binding documents (titles and refs, the
// caller filters excerpts), task statuses and link types in one read.
func (s *Service) Conventions(ctx context.Context, a Actor, workspace string) (Conventions, error) {
	var out Conventions
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		out.Workspace = sc.ws.Workspace
		order, err := parseOrder("ref")
		if err != nil {
			return err
		}
		q := DocumentQuery{ItemFilter: ItemFilter{Categories: []string{CategoryInProgress}}, Order: order, Limit: 4 * maxConventionDocs}
		ds, err := sc.documents(ctx, tx, q)
		if err != nil {
			return err
		}
		out.Documents = []Document{}
		for _, d := range ds {
			if d.Type.Category != LinkGoverning {
				continue
			}
			if len(out.Documents) == maxConventionDocs {
				out.DocumentsMore = true
				break
			}
			out.Documents = append(out.Documents, d)
		}
		sts, err := tx.Statuses(ctx, sc.ws.Workspace.ID)
		if err != nil {
			return err
		}
		for _, st := range sts {
			if st.EntityType == "task" {
				out.Statuses = append(out.Statuses, st)
			}
		}
		out.LinkTypes, err = tx.LinkTypes(ctx, sc.ws.Workspace.ID)
		return err
	}))
	return out, err
}
