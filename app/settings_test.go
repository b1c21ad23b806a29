package app_test

import (
	"testing"

	"tend/app"
)

// inForce is a setting's value and where it came from: "here", "default",
// or the address it was inherited from.
type inForce struct {
	value any
	from  string
}

// settingsOf maps each setting to its value and where the value came from.
func settingsOf(fs []app.InForce) map[string]inForce {
	out := map[string]inForce{}
	for _, f := range fs {
		from := "default"
		switch {
		case f.SetHere:
			from = "here"
		case f.InheritedFrom != nil:
			from = f.InheritedFrom.Level + " " + f.InheritedFrom.Address
		}
		out[f.Key] = inForce{f.Value, from}
	}
	return out
}

func TestSettingsInForce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	must(f.svc.UpdateWorkspace(f.ctx, f.admin, "default", app.WorkspaceUpdate{Settings: app.PatchOf(map[string]any{"claim_minutes": 30.0})}))(t)
	f.projects(
		app.ProjectCreate{Key: "web", Settings: map[string]any{"week_start": "sunday"}},
		app.ProjectCreate{Key: "ui", Parent: "web", Settings: map[string]any{"claim_minutes": 5.0}},
		app.ProjectCreate{Key: "secret", Visibility: "private"},
	)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "lab", Name: "Lab"}))(t)

	registry := map[string]any{}
	for _, st := range f.svc.SettingsRegistry() {
		registry[st.Key] = st.Default
	}
	if len(registry) != 4 || registry["week_start"] != "monday" {
		t.Fatalf("registry %v", registry)
	}

	ws := settingsOf(must(f.svc.WorkspaceSettings(f.ctx, bob, "default"))(t))
	if got := ws["claim_minutes"]; got != (inForce{30.0, "here"}) {
		t.Errorf("the workspace's claim_minutes %v, want 30 set here", got)
	}
	if got := ws["week_start"]; got != (inForce{"monday", "default"}) {
		t.Errorf("the workspace's week_start %v, want the default", got)
	}
	ui := settingsOf(must(f.svc.ProjectSettings(f.ctx, bob, "", "ui"))(t))
	for key, want := range map[string]inForce{
		"claim_minutes":    {5.0, "here"},
		"week_start":       {"sunday", "project web"},
		"tree_depth":       {registry["tree_depth"], "default"},
		"default_assignee": {"", "default"},
	} {
		if ui[key] != want {
			t.Errorf("ui's %s %v, want %v", key, ui[key], want)
		}
	}
	if got := settingsOf(must(f.svc.ProjectSettings(f.ctx, bob, "", "web"))(t))["claim_minutes"]; got != (inForce{30.0, "workspace default"}) {
		t.Errorf("web's claim_minutes %v, want the workspace's", got)
	}

	t.Run("refused", func(t *testing.T) {
		_, err := f.svc.WorkspaceSettings(f.ctx, bob, "lab")
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.ProjectSettings(f.ctx, bob, "", "secret")
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.ProjectSettings(f.ctx, bob, "", "nope")
		wantCode(t, err, app.CodeNotFound)
	})
}
