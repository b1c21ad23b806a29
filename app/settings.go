package app

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
