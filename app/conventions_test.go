package app_test

import (
	"testing"

	"tend/app"
)

func TestConventions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	spec := f.doc(f.admin, app.DocumentCreate{Title: "the spec", Type: "spec", Status: "current"})
	f.doc(f.admin, app.DocumentCreate{Title: "a draft decision", Type: "decision", Status: "draft"})
	f.doc(f.admin, app.DocumentCreate{Title: "a current note", Type: "note", Status: "current"})
	f.doc(f.admin, app.DocumentCreate{Title: "a secret decision", Type: "decision", Status: "current", Project: "secret"})

	// Only what is in force, of a governing type, and readable by the caller binds.
	c := must(f.svc.Conventions(f.ctx, bob, ""))(t)
	if len(c.Documents) != 1 || c.Documents[0].Ref != spec.Ref || c.DocumentsMore || c.Workspace.Slug != "default" {
		t.Errorf("bob's conventions: %d documents (more %v) in %s", len(c.Documents), c.DocumentsMore, c.Workspace.Slug)
	}
	if n := len(must(f.svc.Conventions(f.ctx, f.admin, ""))(t).Documents); n != 2 {
		t.Errorf("the administrator is bound by %d documents, want 2", n)
	}
	for _, st := range c.Statuses {
		if st.EntityType != "task" {
			t.Errorf("a %s status among the task statuses", st.EntityType)
		}
	}
	if len(c.Statuses) == 0 || len(c.LinkTypes) == 0 {
		t.Errorf("%d statuses, %d link types", len(c.Statuses), len(c.LinkTypes))
	}
	_, err := f.svc.Conventions(f.ctx, bob, "no-such-workspace")
	wantCode(t, err, app.CodeNotFound)
}
