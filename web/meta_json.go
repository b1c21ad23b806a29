package web

import (
	"tend/app"
	"tend/app/line"
)

// The parts of GET /v1/meta that describe the domain's own tables (its
// limits, roles, permissions and grammars), as the wire names them. Each
// is a conversion of the app's type, field for field, so a field added
// there does not compile here until it has its name on the wire.

// limitsJSON is app.Limits under meta's limits.
type limitsJSON struct {
	DefaultPageSize        int `json:"default_page_size"`
	MaxPageSize            int `json:"max_page_size"`
	MaxTitleLength         int `json:"max_title_length"`
	MaxEstimateMinutes     int `json:"max_estimate_minutes"`
	MaxHierarchyDepth      int `json:"max_hierarchy_depth"`
	MaxBodyBytes           int `json:"max_body_bytes"`
	MaxTreeDepth           int `json:"max_tree_depth"`
	DefaultTreeDepth       int `json:"default_tree_depth"`
	DefaultClaimMins       int `json:"default_claim_minutes"`
	MaxClaimMins           int `json:"max_claim_minutes"`
	GroupLimitDefault      int `json:"group_limit_default"`
	GroupLimitMax          int `json:"group_limit_max"`
	MaxScopeProjects       int `json:"max_scope_projects"`
	MaxTagsPerItem         int `json:"max_tags_per_item"`
	MaxTagLength           int `json:"max_tag_length"`
	MaxLinksPerRequest     int `json:"max_links_per_request"`
	MaxBulkTasks           int `json:"max_bulk_tasks"`
	MaxCredentialScopes    int `json:"max_credential_scopes"`
	MaxHiddenStatuses      int `json:"max_hidden_statuses"`
	MaxDescriptionLength   int `json:"max_description_length"`
	MaxMentionsPerText     int `json:"max_mentions_per_text"`
	ExpensiveReads         int `json:"expensive_reads"`
	ReadBudgetMillis       int `json:"read_budget_ms"`
	ReadQueueMillis        int `json:"read_queue_ms"`
	CalendarMaxEvents      int `json:"calendar_max_events"`
	CalendarPastDays       int `json:"calendar_past_days"`
	CalendarFutureDays     int `json:"calendar_future_days"`
	CalendarDoneDays       int `json:"calendar_done_days"`
	CalendarRefreshMinutes int `json:"calendar_refresh_minutes"`
	SearchRankedMatches    int `json:"search_ranked_matches"`
	MaxWaitSeconds         int `json:"max_wait_seconds"`
	WaitersPerCredential   int `json:"waiters_per_credential"`
}

// roleJSON is one of app.Roles.
type roleJSON struct {
	Key         string   `json:"key"`
	Rank        int      `json:"rank"`
	Permissions []string `json:"permissions"`
	Description string   `json:"description"`
}

// permissionJSON is one of app.Permissions.
type permissionJSON struct {
	Name        string   `json:"name"`
	Level       string   `json:"level"`
	Description string   `json:"description"`
	Needs       []string `json:"needs,omitempty"`
}

// grammarJSON is one written language the service reads.
type grammarJSON struct {
	Description string   `json:"description"`
	Examples    []string `json:"examples"`
	Vocabulary  []string `json:"vocabulary"`
}

// grammars are the written languages tend reads: the search syntax and
// the time grammars (line, date, repeat, duration, filter), each from the
// parser's own tables.
func grammars() map[string]grammarJSON {
	out := map[string]grammarJSON{"search": grammarJSON(app.SearchGrammar)}
	for k, g := range line.Grammars() {
		out[k] = grammarJSON(g)
	}
	return out
}
