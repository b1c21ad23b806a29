package app

import "context"

// Setting is one entry of the registry of what an installation may be
// configured with, so a client can build a form from it. Levels says where
// it may be set; a value set lower wins (project over its ancestors over the
// workspace over the default).
type Setting struct {
	Key         string
	Kind        string
	Accepts     string
	Choices     []string
	Default     any
	Description string
	Levels      []string
}

// SettingsRegistry lists every setting.
func (s *Service) SettingsRegistry() []Setting {
	levels := []string{"workspace", "project"}
	return []Setting{
		{Key: "claim_minutes", Kind: "integer", Accepts: "whole minutes, 1 to the instance's max_claim_minutes",
			Default: s.limits.DefaultClaimMins, Description: "how long a claim lasts when the claimer names no minutes", Levels: levels},
		{Key: "tree_depth", Kind: "integer", Accepts: "levels, 1 to the instance's max_tree_depth",
			Default: s.limits.DefaultTreeDepth, Description: "how deep the tree view walks when no depth is asked for", Levels: levels},
		{Key: "week_start", Kind: "choice", Accepts: "one of the choices", Choices: []string{"monday", "sunday"},
			Default: "monday", Description: "the first day of the week for repeat phrases and the agenda", Levels: levels},
		{Key: "default_assignee", Kind: "username", Accepts: "a member's username, or empty for nobody",
			Default: "", Description: "who new tasks are assigned to when the writer names nobody", Levels: levels},
	}
}

// InForce is one setting as it applies to a workspace or project: its value
// and where that value came from.
type InForce struct {
	Key           string
	Value         any
	Default       any
	SetHere       bool
	InheritedFrom *Source
}

// Source names where an inherited setting was chosen.
type Source struct {
	Level   string // "project" or "workspace"
	ID      string
	Address string // project path within its workspace, or the workspace slug
}

// checkSettings refuses unknown keys and values of the wrong kind. A null
// value clears the setting.
func (s *Service) checkSettings(loc string, in map[string]any) error {
	var errs []error
	for k, v := range in {
		st, ok := s.setting(k)
		if !ok {
			errs = append(errs, Invalidf(loc+"."+k, "unknown setting %q; GET /v1/meta lists them", k))
			continue
		}
		if v == nil {
			continue
		}
		if err := s.checkSettingValue(st, v); err != nil {
			errs = append(errs, Invalidf(loc+"."+k, "%s: %s", k, err.Error()))
		}
	}
	return joinErrors(errs...)
}

func (s *Service) setting(key string) (Setting, bool) {
	for _, st := range s.SettingsRegistry() {
		if st.Key == key {
			return st, true
		}
	}
	return Setting{}, false
}

type settingErr string

func (e settingErr) Error() string { return string(e) }

func (s *Service) checkSettingValue(st Setting, v any) error {
	switch st.Kind {
	case "integer":
		f, ok := v.(float64)
		hi := s.limits.MaxClaimMins
		if st.Key == "tree_depth" {
			hi = s.limits.MaxTreeDepth
		}
		if !ok || f != float64(int(f)) || f < 1 || int(f) > hi {
			return settingErr("a whole number from 1 to " + itoa(hi))
		}
	case "choice":
		str, _ := v.(string)
		if !has(st.Choices, str) {
			return settingErr("one of " + joinWords(st.Choices))
		}
	default:
		if _, ok := v.(string); !ok {
			return settingErr("a string")
		}
	}
	return nil
}

// mergedSettings returns base with a settings patch applied (null removes
// a key). It never changes base, which may be shared with a cache.
func mergedSettings(base, patch map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(patch))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range patch {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// inForce resolves every setting for a project (nil for the workspace level).
func (s *Service) inForce(ws Workspace, wsSettings map[string]any, n *projectNode) []InForce {
	var out []InForce
	for _, st := range s.SettingsRegistry() {
		f := InForce{Key: st.Key, Default: st.Default, Value: st.Default}
		found := false
		for x := n; x != nil && !found; x = x.parent {
			if v, ok := x.Settings[st.Key]; ok {
				f.Value, found = v, true
				if x == n {
					f.SetHere = true
				} else {
					f.InheritedFrom = &Source{Level: "project", ID: x.ID, Address: x.Path}
				}
			}
		}
		if v, ok := wsSettings[st.Key]; ok && !found {
			f.Value = v
			if n == nil {
				f.SetHere = true
			} else {
				f.InheritedFrom = &Source{Level: "workspace", ID: ws.ID, Address: ws.Slug}
			}
		}
		out = append(out, f)
	}
	return out
}

// WorkspaceSettings lists every setting as it applies to a workspace.
func (s *Service) WorkspaceSettings(ctx context.Context, a Actor, workspace string) ([]InForce, error) {
	var out []InForce
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := acc.workspace(workspace, false)
		if err != nil {
			return err
		}
		if err := w.require(PermWorkspaceRead); err != nil {
			return err
		}
		out = s.inForce(w.Workspace, w.Workspace.Settings, nil)
		return nil
	}))
	return out, err
}

// ProjectSettings lists every setting as it applies to a project: set here,
// inherited from an ancestor or the workspace, or the default.
func (s *Service) ProjectSettings(ctx context.Context, a Actor, workspace, idOrKey string) ([]InForce, error) {
	var out []InForce
	err := s.store.View(ctx, withFound(ctx, a, workspace, idOrKey, findProject, func(tx Tx, sc *scope, n *projectNode) error {
		out = s.inForce(sc.ws.Workspace, sc.ws.Workspace.Settings, n)
		return nil
	}))
	return out, err
}
