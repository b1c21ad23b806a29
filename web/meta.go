package web

import (
	"net/http"
	"reflect"
	"strings"

	"tend/app"
	"tend/web/wire"
)

type itemTypeJSON struct {
	ID        *string `json:"id"`
	Key       string  `json:"key"`
	Label     string  `json:"label"`
	Category  string  `json:"category"`
	IsDefault bool    `json:"is_default"`
}

type linkTypeJSON struct {
	ID           *string `json:"id"`
	Key          string  `json:"key"`
	Title        string  `json:"title"`
	InverseTitle string  `json:"inverse_title"`
	IsSymmetric  bool    `json:"is_symmetric"`
	Category     string  `json:"category"`
}

type tagsJSON struct {
	Total   int      `json:"total"`
	Names   []string `json:"names"`
	HasMore bool     `json:"has_more"`
}

type settingJSON struct {
	Key         string   `json:"key"`
	Kind        string   `json:"kind"`
	Accepts     string   `json:"accepts"`
	Choices     []string `json:"choices"`
	Default     any      `json:"default"`
	Description string   `json:"description"`
	Levels      []string `json:"levels"`
}

type listingJSON struct {
	Path       string   `json:"path"`
	Filters    []string `json:"filters"`
	Formats    []string `json:"formats"`
	Order      []string `json:"order"`
	Fields     []string `json:"fields"`
	Selectable []string `json:"selectable"`
	Sortable   []string `json:"sortable"`
}

type metaJSON struct {
	APIVersion         string                    `json:"api_version"`
	InstanceVersion    *string                   `json:"instance_version"`
	SchemaRevision     *string                   `json:"schema_revision"`
	Purpose            string                    `json:"purpose"`
	Instance           *instanceJSON             `json:"instance"`
	PublicURL          *string                   `json:"public_url"`
	SourceURL          string                    `json:"source_url"`
	ServerTime         string                    `json:"server_time"`
	Docs               map[string]string         `json:"docs"`
	ErrorCodes         []app.Code                `json:"error_codes"`
	Grammars           map[string]grammarJSON    `json:"grammars"`
	Limits             limitsJSON                `json:"limits"`
	Listings           map[string]listingJSON    `json:"listings"`
	Settings           []settingJSON             `json:"settings"`
	Workspace          *string                   `json:"workspace"`
	Workspaces         []wire.WorkspaceRef       `json:"workspaces"`
	Statuses           map[string][]wire.Status  `json:"statuses"`
	StatusCategories   []string                  `json:"status_categories"`
	ItemTypes          map[string][]itemTypeJSON `json:"item_types"`
	LinkTypes          []linkTypeJSON            `json:"link_types"`
	LinkableTypes      []string                  `json:"linkable_types"`
	Tags               tagsJSON                  `json:"tags"`
	VocabularyNotShown *string                   `json:"vocabulary_not_shown"`
	SearchBackend      *string                   `json:"search_backend"`
	Roles              []roleJSON                `json:"roles"`
	Permissions        []permissionJSON          `json:"permissions"`
	Scopes             []string                  `json:"scopes"`
	EventActions       []string                  `json:"event_actions"`
	EventKinds         []string                  `json:"event_kinds"`
}

const purpose = "tend tracks work for people and AI agents: tasks, documents, projects, typed links and a change history, " +
	"in one self-hosted SQLite file. Agents claim work, record what they checked and leave findings for the next agent."

func (s *Server) handleMeta(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	m, err := s.app.Meta(r.Context(), a, r.URL.Query().Get("workspace_id"))
	if err != nil {
		return err
	}
	inst := newInstanceJSON(m.Instance)
	out := metaJSON{APIVersion: app.APIVersion, InstanceVersion: wire.OrNull(m.InstanceVersion), SchemaRevision: wire.OrNull(m.SchemaRevision),
		Purpose: purpose, Instance: &inst, PublicURL: wire.OrNull(m.PublicURL), SourceURL: sourceURL(r), ServerTime: wire.Stamp(m.ServerTime),
		Docs: map[string]string{"problem_types": wire.ProblemTypeBase + "{code}", "agent": "/v1/docs/agent", "examples": "/v1/docs/examples", "mcp": "/mcp"}, ErrorCodes: app.AllCodes,
		Grammars: grammars(), SearchBackend: wire.OrNull(m.SearchBackend), Limits: limitsJSON(s.app.Limits()), Listings: listings(), Settings: settingsJSON(s.app.SettingsRegistry()),
		Workspaces: wire.Map(m.Workspaces, func(ws app.WorkspaceView) wire.WorkspaceRef { return wire.NewWorkspaceRef(ws.Workspace) }),
		Statuses:   map[string][]wire.Status{}, StatusCategories: app.StatusCategories,
		ItemTypes: map[string][]itemTypeJSON{}, LinkTypes: wire.Map(m.LinkTypes, newLinkTypeJSON), LinkableTypes: app.LinkableTypes,
		Tags: tagsJSON{Total: m.Tags.Total, Names: m.Tags.Names, HasMore: m.Tags.HasMore}, VocabularyNotShown: wire.OrNull(m.VocabularyNotShown),
		Roles:       wire.Map(app.Roles, func(r app.Role) roleJSON { return roleJSON(r) }),
		Permissions: wire.Map(app.Permissions, func(p app.Permission) permissionJSON { return permissionJSON(p) }), Scopes: app.ScopeNames(), EventActions: app.Actions,
		EventKinds: app.EventKinds}
	if out.Tags.Names == nil {
		out.Tags.Names = []string{}
	}
	if m.Workspace != nil {
		out.Workspace = &m.Workspace.ID
	}
	for e, sts := range m.Statuses {
		out.Statuses[e] = wire.Map(sts, wire.NewStatus)
	}
	for e, its := range m.ItemTypes {
		out.ItemTypes[e] = wire.Map(its, func(it app.ItemType) itemTypeJSON {
			return itemTypeJSON{ID: wire.OrNull(it.ID), Key: it.Key, Label: it.Label, Category: it.Category, IsDefault: it.IsDefault}
		})
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}

// sourceURL is the absolute URL this meta document was served at.
func sourceURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.Path
}

func settingsJSON(reg []app.Setting) []settingJSON {
	return wire.Map(reg, func(st app.Setting) settingJSON {
		return settingJSON{Key: st.Key, Kind: st.Kind, Accepts: st.Accepts, Choices: st.Choices, Default: st.Default,
			Description: st.Description, Levels: st.Levels}
	})
}

// listings describes each listing truthfully: the parameters it reads, its
// formats, and the fields an item has (read from the wire type itself, so
// the description cannot drift from the response).
func listings() map[string]listingJSON {
	plain := []string{"full"}
	shaped := []string{"full", "compact", "ids"}
	mk := func(path string, filters, formats, order []string, item any) listingJSON {
		f := jsonFields(reflect.TypeOf(item))
		return listingJSON{Path: path, Filters: filters, Formats: formats, Order: order, Fields: f, Selectable: f, Sortable: order}
	}
	paged := []string{"workspace_id", "limit", "cursor", "format", "fields"}
	history := append([]string{"order"}, paged...)
	comments := append([]string{"include_total"}, paged...)
	return map[string]listingJSON{
		"users":               mk("/v1/users", []string{"answers_to", "limit", "cursor", "include_total", "format", "fields"}, shaped, []string{"created_at"}, userJSON{}),
		"workspaces":          mk("/v1/workspaces", []string{"deleted"}, plain, []string{"joined_at"}, workspaceJSON{}),
		"workspace_members":   mk("/v1/workspaces/{id_or_slug}/members", []string{}, plain, []string{"created_at"}, memberJSON{}),
		"workspace_settings":  mk("/v1/workspaces/{id_or_slug}/settings", []string{}, plain, []string{}, inForceJSON{}),
		"tokens":              mk("/v1/tokens", []string{}, plain, []string{"-created_at"}, tokenJSON{}),
		"instance_workspaces": mk("/v1/instance/workspaces", []string{}, plain, []string{"created_at"}, workspaceOnInstanceJSON{}),
		"backups":             mk("/v1/admin/backups", []string{}, plain, []string{"-taken_at"}, backupJSON{}),
		"projects":            mk("/v1/projects", []string{"workspace_id", "deleted", "format", "fields"}, shaped, []string{"path"}, wire.Project{}),
		"project_members":     mk("/v1/projects/{id_or_key}/members", []string{"workspace_id"}, plain, []string{"owner", "created_at"}, projectMemberJSON{}),
		"project_settings":    mk("/v1/projects/{id_or_key}/settings", []string{"workspace_id"}, plain, []string{}, inForceJSON{}),
		"project_access":      mk("/v1/me/projects", []string{}, plain, []string{"address"}, projectAccessJSON{}),
		"project_events":      mk("/v1/projects/{id_or_key}/events", history, shaped, []string{"-seq", "seq"}, wire.Event{}),
		"tasks": mk("/v1/tasks", []string{"workspace_id", "project", "status", "tag", "status_category", "type", "assignee",
			"claimed_by", "parent", "subtree", "q", "due_before", "due_after", "include_completed", "deferred", "deleted", "ready",
			"to_act_on", "order", "limit", "cursor", "include_total", "format", "fields", "group_by", "group_limit", "include"},
			shaped, orderBoth(app.TaskOrderFields), wire.Task{}),
		"task_events":        mk("/v1/tasks/{id_or_ref}/events", history, shaped, []string{"-seq", "seq"}, wire.Event{}),
		"task_links":         mk("/v1/tasks/{id_or_ref}/links", []string{"workspace_id"}, plain, []string{"created_at"}, wire.Link{}),
		"task_verifications": mk("/v1/tasks/{id_or_ref}/verifications", []string{"workspace_id"}, plain, []string{"-ran_at"}, wire.Verification{}),
		"documents": mk("/v1/documents", []string{"workspace_id", "project", "type", "status", "status_category", "tag", "parent",
			"subtree", "q", "deleted", "order", "limit", "cursor", "include_total", "format", "fields"}, shaped, orderBoth(app.DocumentOrderFields), wire.Document{}),
		"document_events":         mk("/v1/documents/{id_or_ref}/events", history, shaped, []string{"-seq", "seq"}, wire.Event{}),
		"document_links":          mk("/v1/documents/{id_or_ref}/links", []string{"workspace_id"}, plain, []string{"created_at"}, wire.Link{}),
		"task_comments":           mk("/v1/tasks/{id_or_ref}/comments", comments, shaped, []string{"created_at"}, wire.Comment{}),
		"document_comments":       mk("/v1/documents/{id_or_ref}/comments", comments, shaped, []string{"created_at"}, wire.Comment{}),
		"project_comments":        mk("/v1/projects/{id_or_key}/comments", comments, shaped, []string{"created_at"}, wire.Comment{}),
		"task_backlinks":          mk("/v1/tasks/{id_or_ref}/backlinks", []string{"workspace_id"}, plain, []string{"created_at"}, backlinkJSON{}),
		"document_backlinks":      mk("/v1/documents/{id_or_ref}/backlinks", []string{"workspace_id"}, plain, []string{"created_at"}, backlinkJSON{}),
		"task_governing":          mk("/v1/tasks/{id_or_ref}/governing", []string{"workspace_id"}, plain, []string{"ref"}, wire.Governing{}),
		"document_governing":      mk("/v1/documents/{id_or_ref}/governing", []string{"workspace_id"}, plain, []string{"ref"}, wire.Governing{}),
		"task_proposed_links":     mk("/v1/tasks/{id_or_ref}/proposed-links", []string{"workspace_id"}, plain, []string{"evidence"}, proposalJSON{}),
		"document_proposed_links": mk("/v1/documents/{id_or_ref}/proposed-links", []string{"workspace_id"}, plain, []string{"evidence"}, proposalJSON{}),
		"task_tree":               mk("/v1/tasks/{id_or_ref}/tree", []string{"workspace_id", "depth"}, plain, []string{"reading"}, wire.Beneath{}),
		"document_tree":           mk("/v1/documents/{id_or_ref}/tree", []string{"workspace_id", "depth"}, plain, []string{"reading"}, wire.Beneath{}),
		"statuses":                mk("/v1/statuses", []string{"workspace_id", "entity_type"}, plain, []string{"entity_type", "position"}, wire.Status{}),
		"link_types":              mk("/v1/link-types", []string{"workspace_id"}, plain, []string{"created_at"}, linkTypeJSON{}),
		"tags":                    mk("/v1/tags", []string{"workspace_id", "limit", "cursor", "include_total"}, plain, []string{"name"}, wire.Tag{}),
		"changes": mk("/v1/changes", append([]string{"since", "wait", "action", "project", "actor", "created_at.gt", "created_at.gte", "created_at.lt",
			"created_at.lte", "include_total"}, paged...), shaped, []string{"seq"}, wire.Event{}),
		"journal": mk("/v1/journal", append([]string{"actor", "created_at.gt", "created_at.gte", "created_at.lt", "created_at.lte",
			"order", "oldest", "include_total"}, paged...), shaped, []string{"-seq", "seq"}, wire.JournalEntry{}),
	}
}

// orderBoth lists a listing's order fields, ascending and descending.
func orderBoth(fields []string) []string {
	var out []string
	for _, f := range fields {
		out = append(out, f, "-"+f)
	}
	return out
}

// jsonFields lists the JSON names of a struct's fields, embedded ones included.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
