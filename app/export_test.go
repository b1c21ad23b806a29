package app_test

import (
	"io"
	"testing"

	"tend/app"
)

// tape is an export kept in memory: an ExportWriter while it is written,
// a RecordReader when it is played back.
type tape struct {
	header  app.ExportHeader
	records []*app.Record
	ended   int64
	next    int
}

func (p *tape) Begin(h app.ExportHeader) error { p.header = h; return nil }
func (p *tape) End(n int64) error              { p.ended = n; return nil }

// Record keeps a copy: the store may reuse r for the next record.
func (p *tape) Record(r *app.Record) error {
	c := *r
	c.Fields = append([]app.Field(nil), r.Fields...)
	p.records = append(p.records, &c)
	return nil
}

func (p *tape) Header() (app.ExportHeader, error) { return p.header, nil }

func (p *tape) Next() (*app.Record, error) {
	if p.next == len(p.records) {
		return nil, io.EOF
	}
	p.next++
	return p.records[p.next-1], nil
}

// kinds counts a tape's records by kind.
func (p *tape) kinds() map[string]int {
	out := map[string]int{}
	for _, r := range p.records {
		out[r.Kind]++
	}
	return out
}

// export writes a's export of workspace ("" for all it may) to a tape.
func (f *fixture) export(a app.Actor, workspace string) (*tape, error) {
	p := &tape{}
	return p, f.svc.Export(f.ctx, a, workspace, p)
}

func TestExport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	owner := f.person("olga", app.RoleOwner)
	bob := f.person("bob", app.RoleMember)
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	narrowed := f.login(f.issue(app.TokenCreate{Title: "narrow", Username: "olga", ProjectScope: app.PatchOf([]string{"web"})}))
	task := f.task(f.admin, app.TaskCreate{Title: "exported", Project: "web"})
	f.comment(bob, task.Ref, "and its comment")
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "lab", Name: "Lab"}))(t)

	all := must(f.export(f.admin, ""))(t)
	if len(all.header.Workspaces) != 2 || !all.header.Emails || all.header.Format != app.ExportFormat || all.ended != int64(len(all.records)) {
		t.Errorf("the administrator's header %+v, %d records, end says %d", all.header, len(all.records), all.ended)
	}
	if k := all.kinds(); k["task"] != 1 || k["comment"] != 1 || k["workspace"] != 2 {
		t.Errorf("records by kind %v", k)
	}
	for _, r := range all.records {
		if r.Kind == "task" && r.Get("title") != "exported" {
			t.Errorf("the task's title reads %v", r.Get("title"))
		}
	}
	if one := must(f.export(owner, "default"))(t); len(one.header.Workspaces) != 1 || one.header.Emails {
		t.Errorf("the owner's header %+v, want the default workspace without emails", one.header)
	}

	wantRefused(t, []refused[string]{
		{"a member, not an admin of the workspace", bob, "default", app.CodeForbidden, ""},
		{"a credential narrowed to some projects", narrowed, "default", app.CodeCredentialNarrowed, ""},
		{"a workspace the caller is not in", owner, "lab", app.CodeNotFound, ""},
		{"no such workspace, for the administrator", f.admin, "nowhere", app.CodeNotFound, ""},
	}, func(a app.Actor, workspace string) error {
		_, err := f.export(a, workspace)
		return err
	})
}

func TestImport(t *testing.T) {
	t.Parallel()
	from := newFixture(t)
	from.person("bob", app.RoleMember)
	from.project(from.admin, app.ProjectCreate{Key: "web"})
	from.task(from.admin, app.TaskCreate{Title: "carried over", Project: "web"})
	exported := must(from.export(from.admin, ""))(t)

	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)
	// A dry run checks the whole file and writes nothing.
	dry := must(f.svc.Import(f.ctx, f.admin, exported, true))(t)
	if !dry.DryRun || len(dry.Records) == 0 {
		t.Errorf("dry run report %+v", dry)
	}
	if got := must(f.svc.Meta(f.ctx, f.admin, ""))(t).Workspaces; len(got) != 1 {
		t.Errorf("after a dry run the administrator reaches %d workspaces, want 1", len(got))
	}

	replay := func(mend func(*tape)) *tape {
		p := &tape{header: exported.header, records: exported.records}
		mend(p)
		return p
	}
	wantRefused(t, []refused[*tape]{
		{"not an administrator", bob, replay(func(*tape) {}), app.CodeForbidden, ""},
		{"another format", f.admin, replay(func(p *tape) { p.header.Format = app.ExportFormat + 1 }), app.CodeInvalid, ""},
		{"a newer schema", f.admin, replay(func(p *tape) { p.header.Schema = "9999_future" }), app.CodeSchemaTooNew, ""},
	}, func(a app.Actor, p *tape) error { return errOf(f.svc.Import(f.ctx, a, p, false)) })
	t.Run("a record whose field breaks the API's rules", func(t *testing.T) {
		p := replay(func(p *tape) {
			p.records = nil
			for _, r := range exported.records {
				_ = p.Record(r)
				if r.Kind == "task" {
					p.records[len(p.records)-1].Set("title", "")
				}
			}
		})
		_, err := f.svc.Import(f.ctx, f.admin, p, true)
		if app.CodeOf(err) == "" {
			t.Error("a task without a title imported")
		}
	})
}
