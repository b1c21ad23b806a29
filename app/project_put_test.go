package app_test

import (
	"testing"

	"tend/app"
)

// TestProjectPut creates a project by key, then changes the one holding
// the key, each in one call; the refusals are those of creating and of
// changing, by which one the call comes to.
func TestProjectPut(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	viewer := f.person("vera", app.RoleViewer)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "secret", Visibility: "private"}, app.ProjectCreate{Key: "gone"})
	must(f.svc.DeleteProject(f.ctx, f.admin, "", "gone"))(t)

	p, created, err := f.svc.PutProject(f.ctx, bob, "", app.ProjectPut{Key: "ops", Title: ptr("Ops"), Parent: ptr("web")})
	if err != nil || !created || p.Title != "Ops" || p.Path != "web/ops" || p.Visibility != "public" || p.Version != 1 {
		t.Fatalf("create: %+v, created %v, %v", p, created, err)
	}
	p, created, err = f.svc.PutProject(f.ctx, bob, "", app.ProjectPut{Key: "ops", Title: ptr("Operations"), Parent: ptr(""), Visibility: "private"})
	if err != nil || created || p.Title != "Operations" || p.Path != "ops" || p.Visibility != "private" || p.Version != 2 {
		t.Fatalf("change with a title: %+v, created %v, %v", p, created, err)
	}
	p, created, err = f.svc.PutProject(f.ctx, bob, "", app.ProjectPut{Key: "ops", Visibility: "public"})
	if err != nil || created || p.Title != "Operations" || p.Visibility != "public" || p.Version != 3 {
		t.Fatalf("change without a title: %+v, created %v, %v", p, created, err)
	}
	events := must(f.svc.ProjectEvents(f.ctx, bob, "", "ops", app.EventQuery{}))(t)
	if len(events.Items) != 3 {
		t.Fatalf("%d events, want one per put: %+v", len(events.Items), events.Items)
	}

	for _, c := range []struct {
		name string
		a    app.Actor
		in   app.ProjectPut
		code app.Code
		loc  string
	}{
		{"a key with capitals", f.admin, app.ProjectPut{Key: "Ops", Title: ptr("x")}, app.CodeValidation, "body.key"},
		{"an empty title", f.admin, app.ProjectPut{Key: "ops", Title: ptr("")}, app.CodeValidation, "body.title"},
		{"a visibility that is neither", f.admin, app.ProjectPut{Key: "ops", Visibility: "secret"}, app.CodeValidation, "body.visibility"},
		{"no title and no such key", f.admin, app.ProjectPut{Key: "nope", Visibility: "public"}, app.CodeNotFound, ""},
		{"a key the caller cannot see", bob, app.ProjectPut{Key: "secret", Title: ptr("x")}, app.CodeNotFound, ""},
		{"a key held in the trash", f.admin, app.ProjectPut{Key: "gone", Title: ptr("x")}, app.CodeNotFound, ""},
		{"an unknown parent", f.admin, app.ProjectPut{Key: "new", Title: ptr("x"), Parent: ptr("nope")}, app.CodeValidation, "body.parent"},
		{"a viewer creating", viewer, app.ProjectPut{Key: "v", Title: ptr("x")}, app.CodeForbidden, ""},
		{"a viewer changing", viewer, app.ProjectPut{Key: "web", Title: ptr("x")}, app.CodeForbidden, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, created, err := f.svc.PutProject(f.ctx, c.a, "", c.in)
			if created {
				t.Error("a refused put reports a project created")
			}
			wantRefusal(t, err, c.code, c.loc)
		})
	}
}
