package app

import (
	"context"
	"time"
)

// ExportFormat is the version of the export file's layout: an import reads
// files of this format only. It changes when the file's own framing (the
// header, the record kinds and what a record's fields mean) changes, not
// when a migration adds a column: a record written before a column existed
// imports with the column's default.
const ExportFormat = 1

// An export is every record one or more workspaces hold, in the order an
// import writes them back: the header, the instance, the accounts the
// workspaces refer to, then each kind of record for every workspace
// together (workspaces, members, vocabularies, projects, tasks, documents,
// links, comments, verifications, calendars, external ids and events), each
// kind in the order it was written. The file holds no secret: no
// credential, session or sign-in link, and a calendar feed without the
// hash of its secret (docs/data.md).

// Record is one row of an export: its kind ("task", "event", ...) and its
// fields, named as the store names them. A value is nil, an int64, a string,
// or JSONText. A record handed to an ExportWriter is valid only until the
// call returns.
type Record struct {
	Kind   string
	Fields []Field
	// Line is where an import read the record (1 for the first line), for
	// naming it in an error; 0 in an export.
	Line int
}

// Field is one named value of a Record.
type Field struct {
	Name  string
	Value any
}

// JSONText is a field's value that is itself a JSON document (an event's
// changes, a project's settings): the file holds it as JSON, not as a
// string of JSON.
type JSONText string

// Get returns the value of the field named name, nil when there is none.
func (r *Record) Get(name string) any {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Text returns the string value of the field named name, "" when it is
// missing or not a string.
func (r *Record) Text(name string) string {
	s, _ := r.Get(name).(string)
	return s
}

// Set replaces the value of the field named name, adding the field when
// the record has none.
func (r *Record) Set(name string, v any) {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			r.Fields[i].Value = v
			return
		}
	}
	r.Fields = append(r.Fields, Field{Name: name, Value: v})
}

// ExportHeader is the export file's first line: what wrote it, when, and
// which workspaces it holds.
type ExportHeader struct {
	Format     int
	Version    string // the tend release that wrote it
	Schema     string // the newest migration of the database it was read from
	ExportedAt time.Time
	Workspaces []ExportedWorkspace
	// Emails is whether accounts carry their email addresses: only an
	// instance administrator's export does.
	Emails bool
}

// ExportedWorkspace names one workspace an export holds.
type ExportedWorkspace struct {
	ID   string
	Slug string
}

// ExportWriter receives an export: Begin once, every record in order, then
// End with how many records there were. An error from any call ends the
// export.
type ExportWriter interface {
	Begin(h ExportHeader) error
	Record(r *Record) error
	End(records int64) error
}

// ExportSelection says which rows an export reads.
type ExportSelection struct {
	WorkspaceIDs []string
	// Hidden lists projects the exporter may not see: they, everything filed
	// in them and every record that would name them are left out.
	Hidden []string
	Emails bool
}

type exportTx interface {
	// ExportRows reads the selected rows in export order and hands each to
	// emit, which must not keep the record.
	ExportRows(ctx context.Context, sel ExportSelection, emit func(*Record) error) error
}

// Export writes every record of a workspace (or, with workspace "" and the
// authority of the instance, of every workspace) to w, streamed from one
// read transaction so that it is consistent however long it takes and never
// whole in memory. An instance administrator exports any workspace, whole;
// otherwise the caller needs the workspace's admin role (owner or admin)
// with a credential that narrows none of its permissions nor its projects,
// and what it may not see (private projects it is not a member of) is left
// out as if it did not exist.
func (s *Service) Export(ctx context.Context, a Actor, workspace string, w ExportWriter) error {
	return s.store.Scan(ctx, func(tx Tx) error {
		acc, err := accessOf(ctx, tx, a)
		if err != nil {
			return err
		}
		sel, wss, err := exportSelection(ctx, tx, acc, workspace)
		if err != nil {
			return err
		}
		h := ExportHeader{Format: ExportFormat, Version: s.opts.Version, Schema: s.store.SchemaRevision(), ExportedAt: tx.Now(),
			Emails: sel.Emails}
		for _, ws := range wss {
			sel.WorkspaceIDs = append(sel.WorkspaceIDs, ws.ID)
			h.Workspaces = append(h.Workspaces, ExportedWorkspace{ID: ws.ID, Slug: ws.Slug})
		}
		if err := w.Begin(h); err != nil {
			return err
		}
		var n int64
		if err := tx.ExportRows(ctx, sel, func(r *Record) error { n++; return w.Record(r) }); err != nil {
			return err
		}
		return w.End(n)
	})
}

// exportSelection resolves what the caller's export holds.
func exportSelection(ctx context.Context, tx Tx, acc *access, workspace string) (ExportSelection, []Workspace, error) {
	if acc.can(PermInstanceAdmin) {
		sel := ExportSelection{Emails: true}
		if workspace == "" {
			all, err := tx.InstanceWorkspaces(ctx)
			wss := make([]Workspace, len(all))
			for i, w := range all {
				wss[i] = w.Workspace
			}
			return sel, wss, err
		}
		ws, err := tx.WorkspaceBySlug(ctx, workspace)
		if CodeOf(err) == CodeNotFound {
			ws, err = tx.WorkspaceByID(ctx, workspace)
		}
		if err != nil {
			return sel, nil, notFoundAs(err, "workspace")
		}
		return sel, []Workspace{ws}, nil
	}
	w, err := acc.pick(workspace)
	if err != nil {
		return ExportSelection{}, nil, err
	}
	if err := requireWorkspaceAdmin(acc, w); err != nil {
		return ExportSelection{}, nil, err
	}
	sc, err := scopeOf(ctx, tx, acc, w)
	if err != nil {
		return ExportSelection{}, nil, err
	}
	var sel ExportSelection
	for _, n := range sc.ordered {
		if !n.sight {
			sel.Hidden = append(sel.Hidden, n.ID)
		}
	}
	return sel, []Workspace{w.Workspace}, nil
}

// requireWorkspaceAdmin refuses an export to anyone but an owner or admin
// of the workspace whose credential narrows nothing the role grants: an
// export holds every record, so a credential narrowed to some permissions
// or projects could read through it what it may not.
func requireWorkspaceAdmin(acc *access, w wsAccess) error {
	admin, _ := RoleByKey(RoleAdmin)
	role, _ := RoleByKey(w.Role)
	if role.Rank < admin.Rank {
		return Errorf(CodeForbidden, "exporting workspace %q needs its admin role (owner or admin), or instance:admin", w.Workspace.Slug)
	}
	for _, p := range admin.Permissions {
		if !w.can(p) {
			return Errorf(CodeCredentialNarrowed, "this credential's scopes leave out %s, which exporting a workspace needs; use one that narrows nothing", p)
		}
	}
	if tok := acc.actor.Token; tok != nil && (tok.ProjectScope != nil || tok.ProjectWriteScope != nil) {
		return Errorf(CodeCredentialNarrowed, "this credential is narrowed to some projects; exporting a workspace needs one that is not")
	}
	return nil
}
