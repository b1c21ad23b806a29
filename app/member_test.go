package app_test

import (
	"maps"
	"testing"

	"tend/app"
)

// memberRolesOf maps each member of a workspace, as a caller lists them,
// to its role.
func memberRolesOf(t *testing.T, f *fixture, a app.Actor, workspace string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range must(f.svc.Members(f.ctx, a, workspace))(t) {
		out[m.User.Username] = m.Role
	}
	return out
}

// TestMembers checks joining, regrading and removing: nobody reaches a
// role above their own, anyone may leave, a workspace keeps an owner.
func TestMembers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", "")
	dave := f.person("dave", app.RoleAdmin)
	f.person("erin", "")

	m := must(f.svc.AddMember(f.ctx, f.admin, "default", app.Join{Username: "CAROL", Role: app.RoleViewer}))(t)
	if m.Role != app.RoleViewer || m.User.Username != "carol" || m.Workspace.Slug != "default" || m.CreatedAt.IsZero() {
		t.Errorf("joined %+v", m)
	}
	if w := must(f.svc.Workspace(f.ctx, carol, "default"))(t); w.Role != app.RoleViewer {
		t.Errorf("carol's role %q", w.Role)
	}
	want := map[string]string{"admin": app.RoleOwner, "bob": app.RoleMember, "carol": app.RoleViewer, "dave": app.RoleAdmin}
	if got := memberRolesOf(t, f, carol, "default"); !maps.Equal(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}

	join := func(a app.Actor, username, role string) func() error {
		return func() error {
			return errOf(f.svc.AddMember(f.ctx, a, "default", app.Join{Username: username, Role: role}))
		}
	}
	regrade := func(a app.Actor, username, role string) func() error {
		return func() error {
			return errOf(f.svc.RegradeMember(f.ctx, a, "default", username, app.Regrade{Role: role}))
		}
	}
	remove := func(a app.Actor, username string) func() error {
		return func() error { return f.svc.RemoveMember(f.ctx, a, "default", username) }
	}
	cases := []struct {
		name string
		call func() error
		code app.Code
		loc  string
	}{
		{"a member twice", join(f.admin, "carol", app.RoleMember), app.CodeAlreadyMember, ""},
		{"an unknown role", join(f.admin, "erin", "boss"), app.CodeValidation, "body.role"},
		{"no role", join(f.admin, "erin", ""), app.CodeValidation, "body.role"},
		{"a role in capitals", join(f.admin, "erin", "Owner"), app.CodeValidation, "body.role"},
		{"an unknown account", join(f.admin, "ghost", app.RoleMember), app.CodeValidation, "body.username"},
		{"a username that is none", join(f.admin, "bad name", app.RoleMember), app.CodeValidation, "body.username"},
		{"no username", join(f.admin, "", app.RoleMember), app.CodeValidation, "body.username"},
		{"a member adds", join(bob, "erin", app.RoleViewer), app.CodeForbidden, ""},
		{"a member regrades", regrade(bob, "carol", app.RoleMember), app.CodeForbidden, ""},
		{"a member removes", remove(bob, "carol"), app.CodeForbidden, ""},
		{"a member promotes itself", regrade(bob, "bob", app.RoleAdmin), app.CodeForbidden, ""},
		{"an admin adds an owner", join(dave, "erin", app.RoleOwner), app.CodeForbidden, ""},
		{"an admin makes an owner", regrade(dave, "bob", app.RoleOwner), app.CodeForbidden, ""},
		{"an admin regrades an owner", regrade(dave, "admin", app.RoleViewer), app.CodeForbidden, ""},
		{"an admin removes an owner", remove(dave, "admin"), app.CodeForbidden, ""},
		{"an admin promotes itself", regrade(dave, "dave", app.RoleOwner), app.CodeForbidden, ""},
		{"regraded to an unknown role", regrade(dave, "carol", "chief"), app.CodeValidation, "body.role"},
		{"regrading an unknown account", regrade(dave, "ghost", app.RoleViewer), app.CodeNotFound, ""},
		{"regrading an account of no workspace", regrade(dave, "erin", app.RoleViewer), app.CodeNotFound, ""},
		{"removing an account of no workspace", remove(dave, "erin"), app.CodeNotFound, ""},
		{"the last owner steps down", regrade(f.admin, "admin", app.RoleMember), app.CodeLastOwner, ""},
		{"the last owner leaves", remove(f.admin, "admin"), app.CodeLastOwner, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantRefusal(t, c.call(), c.code, c.loc) })
	}
	if got := memberRolesOf(t, f, carol, "default"); !maps.Equal(got, want) {
		t.Errorf("after the refusals: %v, want %v", got, want)
	}

	t.Run("up to one's own rank", func(t *testing.T) {
		if m := must(f.svc.AddMember(f.ctx, dave, "default", app.Join{Username: "erin", Role: app.RoleAdmin}))(t); m.Role != app.RoleAdmin {
			t.Errorf("erin %+v", m)
		}
		if m := must(f.svc.RegradeMember(f.ctx, dave, "default", "ERIN", app.Regrade{Role: app.RoleViewer}))(t); m.Role != app.RoleViewer ||
			m.User.Username != "erin" {
			t.Errorf("regraded %+v", m)
		}
		// The same role again is not an error.
		must(f.svc.RegradeMember(f.ctx, dave, "default", "erin", app.Regrade{Role: app.RoleViewer}))(t)
		// An owner may step down while another owner stays.
		must(f.svc.RegradeMember(f.ctx, f.admin, "default", "bob", app.Regrade{Role: app.RoleOwner}))(t)
		must(f.svc.RegradeMember(f.ctx, bob, "default", "bob", app.Regrade{Role: app.RoleMember}))(t)
	})
	t.Run("removed, and anyone may leave", func(t *testing.T) {
		wantCode(t, f.svc.RemoveMember(f.ctx, dave, "default", "erin"), "")
		wantCode(t, f.svc.RemoveMember(f.ctx, dave, "default", "erin"), app.CodeNotFound)
		must(f.svc.User(f.ctx, dave, "erin"))(t)
		wantCode(t, f.svc.RemoveMember(f.ctx, carol, "default", "carol"), "")
		_, err := f.svc.Workspace(f.ctx, carol, "default")
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.Members(f.ctx, carol, "default")
		wantCode(t, err, app.CodeNotFound)
	})
}

// TestMembersLastOwner checks that a workspace keeps an owner, even
// against the instance's administrator.
func TestMembersLastOwner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	dave := f.person("dave", "")
	must(f.svc.CreateWorkspace(f.ctx, bob, app.WorkspaceCreate{Slug: "solo", Name: "Solo"}))(t)

	_, err := f.svc.RegradeMember(f.ctx, bob, "solo", "bob", app.Regrade{Role: app.RoleAdmin})
	wantCode(t, err, app.CodeLastOwner)
	wantCode(t, f.svc.RemoveMember(f.ctx, bob, "solo", "bob"), app.CodeLastOwner)
	wantCode(t, f.svc.RemoveMember(f.ctx, f.admin, "solo", "bob"), app.CodeLastOwner)

	must(f.svc.AddMember(f.ctx, bob, "solo", app.Join{Username: "dave", Role: app.RoleOwner}))(t)
	must(f.svc.RegradeMember(f.ctx, bob, "solo", "bob", app.Regrade{Role: app.RoleAdmin}))(t)
	wantCode(t, f.svc.RemoveMember(f.ctx, dave, "solo", "dave"), app.CodeLastOwner)
	wantCode(t, f.svc.RemoveMember(f.ctx, bob, "solo", "bob"), "")
	if got := memberRolesOf(t, f, dave, "solo"); !maps.Equal(got, map[string]string{"dave": app.RoleOwner}) {
		t.Errorf("solo's members %v", got)
	}
}

// TestMembersByAdministrator checks that the instance's administrator
// manages any workspace's members, seeing it with no role of its own.
func TestMembersByAdministrator(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	carol := f.person("carol", "")
	f.person("erin", "")
	must(f.svc.CreateWorkspace(f.ctx, carol, app.WorkspaceCreate{Slug: "carols", Name: "Carol's"}))(t)

	if w := must(f.svc.Workspace(f.ctx, f.admin, "carols"))(t); w.Role != "" || len(w.Permissions) != 0 {
		t.Errorf("the administrator sees %+v", w)
	}
	if got := memberRolesOf(t, f, f.admin, "carols"); !maps.Equal(got, map[string]string{"carol": app.RoleOwner}) {
		t.Errorf("members %v", got)
	}
	must(f.svc.AddMember(f.ctx, f.admin, "carols", app.Join{Username: "erin", Role: app.RoleOwner}))(t)
	must(f.svc.RegradeMember(f.ctx, f.admin, "carols", "carol", app.Regrade{Role: app.RoleViewer}))(t)
	wantCode(t, f.svc.RemoveMember(f.ctx, f.admin, "carols", "carol"), "")
	if got := memberRolesOf(t, f, f.admin, "carols"); !maps.Equal(got, map[string]string{"erin": app.RoleOwner}) {
		t.Errorf("members %v", got)
	}
	// Not being a member, the administrator's own list does not show it.
	if got := slugs(t, f, f.admin, false); len(got) != 1 || got[0] != "default" {
		t.Errorf("the administrator lists %v", got)
	}
	_, err := f.svc.Workspace(f.ctx, carol, "carols")
	wantCode(t, err, app.CodeNotFound)
}
