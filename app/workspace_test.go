package app_test

import (
	"slices"
	"strings"
	"testing"

	"tend/app"
)

// slugs lists the slugs of the workspaces a caller lists, live or trashed.
func slugs(t *testing.T, f *fixture, a app.Actor, trashed bool) []string {
	t.Helper()
	var out []string
	for _, w := range must(f.svc.Workspaces(f.ctx, a, trashed))(t) {
		out = append(out, w.Slug)
	}
	return out
}

func TestWorkspaceCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	pinned := f.login(f.issue(app.TokenCreate{Workspace: app.PatchOf("default")}))

	w := must(f.svc.CreateWorkspace(f.ctx, bob, app.WorkspaceCreate{Slug: "Bobs-Place", Name: "  Bob's place ", Timezone: "Europe/Paris"}))(t)
	if w.Slug != "bobs-place" || w.Name != "Bob's place" || w.Timezone != "Europe/Paris" || w.Role != app.RoleOwner || w.DeletedAt != nil ||
		w.Version != 1 || !slices.Contains(w.Permissions, app.PermWorkspaceDelete) || !slices.Contains(w.Permissions, app.PermWorkspaceMembers) {
		t.Errorf("created %+v", w)
	}
	if ms := must(f.svc.Members(f.ctx, bob, "bobs-place"))(t); len(ms) != 1 || ms[0].User.Username != "bob" || ms[0].Role != app.RoleOwner {
		t.Errorf("members %+v", ms)
	}
	if got := slugs(t, f, bob, false); !slices.Equal(got, []string{"bobs-place"}) {
		t.Errorf("bob lists %v", got)
	}
	if w := must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "ops", Name: "Ops"}))(t); w.Timezone != "UTC" {
		t.Errorf("the timezone defaults to the instance's, got %q", w.Timezone)
	}
	for _, ref := range []string{w.ID, "bobs-place", "BOBS-PLACE"} {
		if got := must(f.svc.Workspace(f.ctx, bob, ref))(t); got.ID != w.ID || got.Role != app.RoleOwner {
			t.Errorf("%s reads as %+v", ref, got)
		}
	}

	cases := []refused[app.WorkspaceCreate]{
		{"an empty slug", bob, app.WorkspaceCreate{Name: "X"}, app.CodeValidation, "body.slug"},
		{"a space in the slug", bob, app.WorkspaceCreate{Slug: "two words", Name: "X"}, app.CodeValidation, "body.slug"},
		{"a leading dash", bob, app.WorkspaceCreate{Slug: "-x", Name: "X"}, app.CodeValidation, "body.slug"},
		{"an underscore", bob, app.WorkspaceCreate{Slug: "a_b", Name: "X"}, app.CodeValidation, "body.slug"},
		{"a slug of 64 characters", bob, app.WorkspaceCreate{Slug: strings.Repeat("a", 64), Name: "X"}, app.CodeValidation, "body.slug"},
		{"no name", bob, app.WorkspaceCreate{Slug: "noname"}, app.CodeValidation, "body.name"},
		{"a blank name", bob, app.WorkspaceCreate{Slug: "noname", Name: "   "}, app.CodeValidation, "body.name"},
		{"an unknown timezone", bob, app.WorkspaceCreate{Slug: "tz", Name: "X", Timezone: "Moon/Tranquility"}, app.CodeValidation, "body.timezone"},
		{"a slug taken", f.admin, app.WorkspaceCreate{Slug: "default", Name: "Again"}, app.CodeConflict, ""},
		{"a slug taken, in capitals", f.admin, app.WorkspaceCreate{Slug: "DEFAULT", Name: "Again"}, app.CodeConflict, ""},
		{"a slug taken by somebody else's", f.admin, app.WorkspaceCreate{Slug: "bobs-place", Name: "Again"}, app.CodeConflict, ""},
		{"by a credential pinned to a workspace", pinned, app.WorkspaceCreate{Slug: "another", Name: "Another"}, app.CodeForbidden, ""},
	}
	wantRefused(t, cases, func(a app.Actor, in app.WorkspaceCreate) error { return errOf(f.svc.CreateWorkspace(f.ctx, a, in)) })
	_, err := f.svc.Workspace(f.ctx, f.admin, "another")
	wantCode(t, err, app.CodeNotFound)
}

func TestWorkspaceUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleAdmin)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "taken", Name: "Taken"}))(t)

	w := must(f.svc.UpdateWorkspace(f.ctx, carol, "default", app.WorkspaceUpdate{Name: app.PatchOf("Main"), Slug: app.PatchOf("main"),
		Timezone: app.PatchOf("Asia/Kolkata"), ExpectedVersion: ptr(1)}))(t)
	if w.Name != "Main" || w.Slug != "main" || w.Timezone != "Asia/Kolkata" || w.Version != 2 || w.Role != app.RoleAdmin {
		t.Errorf("updated %+v", w)
	}
	_, err := f.svc.Workspace(f.ctx, f.admin, "default")
	wantCode(t, err, app.CodeNotFound)
	// A change that changes nothing keeps the version.
	if got := must(f.svc.UpdateWorkspace(f.ctx, carol, "main", app.WorkspaceUpdate{Name: app.PatchOf("Main"), ExpectedVersion: ptr(2)}))(t); got.Version != 2 {
		t.Errorf("a no-op: %+v", got)
	}

	cases := []refused[app.WorkspaceUpdate]{
		{"by a member", bob, app.WorkspaceUpdate{Name: app.PatchOf("Bob's")}, app.CodeForbidden, ""},
		{"a stale version", carol, app.WorkspaceUpdate{Name: app.PatchOf("Stale"), ExpectedVersion: ptr(1)}, app.CodeVersionConflict, ""},
		{"a slug taken", carol, app.WorkspaceUpdate{Slug: app.PatchOf("taken")}, app.CodeConflict, ""},
		{"a slug that is none", carol, app.WorkspaceUpdate{Slug: app.PatchOf("Not A Slug")}, app.CodeValidation, "body.slug"},
		{"an empty name", carol, app.WorkspaceUpdate{Name: app.PatchOf("")}, app.CodeValidation, "body.name"},
		{"an unknown timezone", carol, app.WorkspaceUpdate{Timezone: app.PatchOf("Mars/X")}, app.CodeValidation, "body.timezone"},
		{"an empty timezone", carol, app.WorkspaceUpdate{Timezone: app.PatchOf("")}, app.CodeValidation, "body.timezone"},
	}
	wantRefused(t, cases, func(a app.Actor, in app.WorkspaceUpdate) error {
		return errOf(f.svc.UpdateWorkspace(f.ctx, a, "main", in))
	})
	if got := must(f.svc.Workspace(f.ctx, bob, "main"))(t); got.Name != "Main" || got.Version != 2 {
		t.Errorf("after the refusals: %+v", got)
	}
}

func TestWorkspaceTrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ws := must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "ops", Name: "Ops"}))(t)
	carol := f.person("carol", "")
	must(f.svc.AddMember(f.ctx, f.admin, "ops", app.Join{Username: "carol", Role: app.RoleAdmin}))(t)

	// Trashing needs workspace:delete, which only an owner holds.
	_, err := f.svc.DeleteWorkspace(f.ctx, carol, "ops")
	wantCode(t, err, app.CodeForbidden)
	del := must(f.svc.DeleteWorkspace(f.ctx, f.admin, "ops"))(t)
	if del.ID != ws.ID || del.DeletedAt == nil || del.Version != 2 {
		t.Errorf("deleted %+v", del)
	}
	if got := slugs(t, f, f.admin, false); !slices.Equal(got, []string{"default"}) {
		t.Errorf("live %v", got)
	}
	if got := slugs(t, f, f.admin, true); !slices.Equal(got, []string{"ops"}) {
		t.Errorf("trashed %v", got)
	}

	cases := []struct {
		name string
		call func() error
		code app.Code
	}{
		{"read by slug", func() error { return errOf(f.svc.Workspace(f.ctx, f.admin, "ops")) }, app.CodeNotFound},
		{"read by id", func() error { return errOf(f.svc.Workspace(f.ctx, f.admin, ws.ID)) }, app.CodeNotFound},
		{"changed", func() error {
			return errOf(f.svc.UpdateWorkspace(f.ctx, f.admin, "ops", app.WorkspaceUpdate{Name: app.PatchOf("X")}))
		}, app.CodeNotFound},
		{"trashed again", func() error { return errOf(f.svc.DeleteWorkspace(f.ctx, f.admin, "ops")) }, app.CodeNotFound},
		{"its slug taken again", func() error {
			return errOf(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "ops", Name: "Ops again"}))
		}, app.CodeConflict},
		{"restored by an admin", func() error { return errOf(f.svc.RestoreWorkspace(f.ctx, carol, "ops")) }, app.CodeForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
	}

	res := must(f.svc.RestoreWorkspace(f.ctx, f.admin, "ops"))(t)
	if res.DeletedAt != nil || res.Version != 3 {
		t.Errorf("restored %+v", res)
	}
	_, err = f.svc.RestoreWorkspace(f.ctx, f.admin, "ops")
	wantCode(t, err, app.CodeNotFound)
	if got := slugs(t, f, f.admin, false); !slices.Equal(got, []string{"default", "ops"}) || len(slugs(t, f, f.admin, true)) != 0 {
		t.Errorf("after restoring: live %v, trashed %v", got, slugs(t, f, f.admin, true))
	}
	must(f.svc.Workspace(f.ctx, carol, "ops"))(t)
}

// TestWorkspaceDisclosure checks that every workspace call answers a
// non-member exactly as it answers a workspace that does not exist.
func TestWorkspaceDisclosure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	mallory := f.person("mallory", "")
	def := must(f.svc.Workspace(f.ctx, f.admin, "default"))(t)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "trashed", Name: "Trashed"}))(t)
	must(f.svc.DeleteWorkspace(f.ctx, f.admin, "trashed"))(t)

	calls := []struct {
		name string
		call func(ref string) error
	}{
		{"read", func(ref string) error { return errOf(f.svc.Workspace(f.ctx, mallory, ref)) }},
		{"change", func(ref string) error {
			return errOf(f.svc.UpdateWorkspace(f.ctx, mallory, ref, app.WorkspaceUpdate{Name: app.PatchOf("Mine")}))
		}},
		{"trash", func(ref string) error { return errOf(f.svc.DeleteWorkspace(f.ctx, mallory, ref)) }},
		{"restore", func(ref string) error { return errOf(f.svc.RestoreWorkspace(f.ctx, mallory, ref)) }},
		{"list members", func(ref string) error { return errOf(f.svc.Members(f.ctx, mallory, ref)) }},
		{"join", func(ref string) error {
			return errOf(f.svc.AddMember(f.ctx, mallory, ref, app.Join{Username: "mallory", Role: app.RoleOwner}))
		}},
		{"regrade", func(ref string) error {
			return errOf(f.svc.RegradeMember(f.ctx, mallory, ref, "bob", app.Regrade{Role: app.RoleViewer}))
		}},
		{"remove a member", func(ref string) error { return f.svc.RemoveMember(f.ctx, mallory, ref, "bob") }},
		{"leave", func(ref string) error { return f.svc.RemoveMember(f.ctx, mallory, ref, "mallory") }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			absent := c.call("no-such-place")
			wantCode(t, absent, app.CodeNotFound)
			for _, ref := range []string{"default", def.ID, "trashed"} {
				err := c.call(ref)
				wantCode(t, err, app.CodeNotFound)
				if err.Error() != absent.Error() {
					t.Errorf("%s answers %q, an absent workspace %q", ref, err, absent)
				}
			}
		})
	}
	if len(slugs(t, f, mallory, false)) != 0 || len(slugs(t, f, mallory, true)) != 0 {
		t.Errorf("a non-member lists %v and %v", slugs(t, f, mallory, false), slugs(t, f, mallory, true))
	}
	if got := must(f.svc.Workspace(f.ctx, f.admin, "default"))(t); got.Version != def.Version || got.Name != def.Name {
		t.Errorf("default changed: %+v", got)
	}
	if got := memberRolesOf(t, f, f.admin, "default"); len(got) != 2 || got["bob"] != app.RoleMember {
		t.Errorf("members %v", got)
	}
}

// TestWorkspacePinnedCredential checks that a credential pinned to one
// workspace reaches no other, even an administrator's.
func TestWorkspacePinnedCredential(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)
	must(f.svc.CreateWorkspace(f.ctx, bob, app.WorkspaceCreate{Slug: "bobs", Name: "Bob's"}))(t)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "ops", Name: "Ops"}))(t)

	for _, who := range []struct {
		name   string
		issuer app.Actor
	}{{"a person", bob}, {"the administrator", f.admin}} {
		t.Run(who.name, func(t *testing.T) {
			issued := must(f.svc.CreateToken(f.ctx, who.issuer, app.TokenCreate{Workspace: app.PatchOf("default")}))(t)
			if issued.WorkspaceID == "" || !issued.Narrows() {
				t.Fatalf("issued %+v", issued.Token)
			}
			pinned := f.on(t).login(issued.Secret)
			_, err := f.svc.CreateWorkspace(f.ctx, pinned, app.WorkspaceCreate{Slug: "another", Name: "Another"})
			wantCode(t, err, app.CodeForbidden)
			if got := slugs(t, f, pinned, false); !slices.Equal(got, []string{"default"}) {
				t.Errorf("lists %v", got)
			}
			must(f.svc.Workspace(f.ctx, pinned, "default"))(t)
			for _, other := range []string{"bobs", "ops"} {
				_, err = f.svc.Workspace(f.ctx, pinned, other)
				wantCode(t, err, app.CodeNotFound)
				_, err = f.svc.Members(f.ctx, pinned, other)
				wantCode(t, err, app.CodeNotFound)
				_, err = f.svc.AddMember(f.ctx, pinned, other, app.Join{Username: "admin", Role: app.RoleViewer})
				wantCode(t, err, app.CodeNotFound)
			}
		})
	}
}
