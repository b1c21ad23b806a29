package web_test

import (
	"maps"
	"net/http"
	"slices"
	"sort"
	"testing"
	"time"

	"tend/app"
)

// metaFields are the Meta members SPEC.md lists, every one of them required
// to be present (null where the spec allows it).
var metaFields = []string{"api_version", "docs", "error_codes", "grammars", "instance", "instance_version", "item_types",
	"limits", "link_types", "linkable_types", "listings", "public_url", "purpose", "search_backend", "server_time",
	"settings", "source_url", "statuses", "tags", "vocabulary_not_shown", "workspace", "workspaces"}

func TestMetaShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)

	t.Run("every spec field", func(t *testing.T) {
		for _, f := range metaFields {
			if _, ok := m[f]; !ok {
				t.Errorf("meta lacks %q", f)
			}
		}
		if m["api_version"] != app.APIVersion || m["instance_version"] != "test" {
			t.Errorf("api_version %v, instance_version %v", m["api_version"], m["instance_version"])
		}
		if s, _ := m["purpose"].(string); s == "" {
			t.Error("purpose is empty")
		}
		if s, _ := m["source_url"].(string); s != e.Srv.URL+"/v1/meta" {
			t.Errorf("source_url %q, want %q", s, e.Srv.URL+"/v1/meta")
		}
		if _, err := time.Parse(time.RFC3339, m["server_time"].(string)); err != nil {
			t.Errorf("server_time: %v", err)
		}
		inst := m["instance"].(map[string]any)
		if inst["id"] == "" || inst["name"] != "tend" || inst["timezone"] != "UTC" {
			t.Errorf("instance %v", inst)
		}
		for _, f := range []string{"docs", "grammars", "listings", "statuses", "item_types", "tags", "limits"} {
			if _, ok := m[f].(map[string]any); !ok {
				t.Errorf("%s is %T, want an object", f, m[f])
			}
		}
		for _, f := range []string{"error_codes", "link_types", "linkable_types", "settings", "workspaces"} {
			if _, ok := m[f].([]any); !ok {
				t.Errorf("%s is %T, want an array", f, m[f])
			}
		}
	})

	t.Run("error codes", func(t *testing.T) {
		got := metaStrs(t, m["error_codes"])
		if len(got) != len(app.AllCodes) {
			t.Fatalf("error_codes %v, want %v", got, app.AllCodes)
		}
		for i, c := range app.AllCodes {
			if got[i] != string(c) {
				t.Errorf("error_codes[%d] = %q, want %q", i, got[i], c)
			}
		}
	})

	t.Run("limits", func(t *testing.T) {
		l := m["limits"].(map[string]any)
		for _, f := range []string{"default_page_size", "max_page_size", "max_title_length", "max_estimate_minutes", "max_hierarchy_depth"} {
			n, ok := l[f].(float64)
			if !ok || n <= 0 || n != float64(int(n)) {
				t.Errorf("limits.%s = %v, want a positive integer", f, l[f])
			}
		}
		if l["default_page_size"].(float64) > l["max_page_size"].(float64) {
			t.Errorf("default_page_size over max_page_size: %v", l)
		}
	})

	t.Run("statuses", func(t *testing.T) {
		cats := map[string]bool{"todo": true, "in_progress": true, "done": true, "cancelled": true}
		sts := m["statuses"].(map[string]any)
		for _, entity := range []string{"task", "project", "document"} {
			list, _ := sts[entity].([]any)
			if len(list) == 0 {
				t.Errorf("no %s statuses", entity)
				continue
			}
			defaults := 0
			for _, it := range list {
				st := it.(map[string]any)
				if st["is_default"] == true {
					defaults++
				}
				if !cats[st["category"].(string)] {
					t.Errorf("%s status %v: category %v", entity, st["key"], st["category"])
				}
				if st["key"] == "" || st["label"] == "" || st["entity_type"] != entity {
					t.Errorf("%s status %v", entity, st)
				}
			}
			if defaults != 1 {
				t.Errorf("%s has %d default statuses, want exactly one", entity, defaults)
			}
		}
	})

	t.Run("item types", func(t *testing.T) {
		its := m["item_types"].(map[string]any)
		want := map[string][]string{
			"task":     {"task", "bug", "feature", "chore", "question", "event"},
			"document": {"note", "spec", "design", "decision", "finding", "dead_end"},
		}
		for entity, keys := range want {
			var got []string
			defaults := 0
			for _, it := range its[entity].([]any) {
				x := it.(map[string]any)
				got = append(got, x["key"].(string))
				if x["is_default"] == true {
					defaults++
				}
				if x["label"] == "" {
					t.Errorf("%s type %v has no label", entity, x["key"])
				}
			}
			if !slices.Equal(got, keys) {
				t.Errorf("item_types.%s = %v, want %v", entity, got, keys)
			}
			if defaults != 1 {
				t.Errorf("item_types.%s has %d defaults, want one", entity, defaults)
			}
		}
		if got := metaStrs(t, m["linkable_types"]); !slices.Equal(got, []string{"task", "document"}) {
			t.Errorf("linkable_types %v", got)
		}
	})

	t.Run("link types", func(t *testing.T) {
		byKey := map[string]map[string]any{}
		for _, it := range m["link_types"].([]any) {
			lt := it.(map[string]any)
			byKey[lt["key"].(string)] = lt
		}
		for _, k := range []string{"blocks", "relates_to", "documents", "derives_from"} {
			lt, ok := byKey[k]
			if !ok {
				t.Errorf("no link type %q", k)
				continue
			}
			for _, f := range []string{"title", "inverse_title", "category"} {
				if s, _ := lt[f].(string); s == "" {
					t.Errorf("link type %s: %s = %v", k, f, lt[f])
				}
			}
			if _, ok := lt["is_symmetric"].(bool); !ok {
				t.Errorf("link type %s: is_symmetric = %v", k, lt["is_symmetric"])
			}
		}
		if byKey["relates_to"]["is_symmetric"] != true || byKey["blocks"]["is_symmetric"] != false {
			t.Errorf("relates_to is symmetric and blocks is not: %v, %v", byKey["relates_to"], byKey["blocks"])
		}
	})

	t.Run("roles and permissions", func(t *testing.T) {
		roles, _ := m["roles"].([]any)
		if len(roles) == 0 {
			t.Fatal("no roles")
		}
		for _, it := range roles {
			r := it.(map[string]any)
			if r["key"] == "" || len(r["permissions"].([]any)) == 0 {
				t.Errorf("role %v", r)
			}
		}
		names := map[string]bool{}
		for _, it := range m["permissions"].([]any) {
			names[it.(map[string]any)["name"].(string)] = true
		}
		for _, p := range []string{"instance:user_create", "project:read", "project:write"} {
			if !names[p] {
				t.Errorf("permission %q not listed", p)
			}
		}
	})

	t.Run("listing fields are the real item keys", func(t *testing.T) {
		listings := m["listings"].(map[string]any)
		paths := map[string]string{"users": "/v1/users", "workspaces": "/v1/workspaces", "tokens": "/v1/tokens",
			"workspace_members": "/v1/workspaces/default/members", "instance_workspaces": "/v1/instance/workspaces"}
		for name, path := range paths {
			l, ok := listings[name].(map[string]any)
			if !ok {
				t.Errorf("no listing %q", name)
				continue
			}
			got := e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)
			items := got["items"].([]any)
			if len(items) == 0 {
				t.Errorf("%s: no items to compare with", path)
				continue
			}
			keys := slices.Sorted(maps.Keys(items[0].(map[string]any)))
			fields := metaStrs(t, l["fields"])
			sort.Strings(fields)
			if !slices.Equal(fields, keys) {
				t.Errorf("listings.%s.fields %v, items of %s carry %v", name, fields, path, keys)
			}
		}
		if p := listings["users"].(map[string]any)["path"]; p != "/v1/users" {
			t.Errorf("users listing path %v", p)
		}
		for name, l := range listings {
			lm := l.(map[string]any)
			if _, ok := lm["filters"].([]any); !ok {
				t.Errorf("listing %s: filters %v", name, lm["filters"])
			}
			if f, _ := lm["formats"].([]any); len(f) == 0 {
				t.Errorf("listing %s: no formats", name)
			}
		}
	})

	t.Run("one workspace shows its vocabulary", func(t *testing.T) {
		if m["vocabulary_not_shown"] != nil {
			t.Errorf("vocabulary_not_shown %v with a single workspace", m["vocabulary_not_shown"])
		}
		ws := m["workspaces"].([]any)
		if len(ws) != 1 || m["workspace"] != ws[0].(map[string]any)["id"] {
			t.Errorf("workspace %v, workspaces %v", m["workspace"], ws)
		}
	})
}

func TestMetaVocabularyNeedsAWorkspace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	second := e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "second", "name": "Second"})

	m := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)
	for _, f := range metaFields {
		if _, ok := m[f]; !ok {
			t.Errorf("meta without a workspace lacks %q", f)
		}
	}
	if s, _ := m["vocabulary_not_shown"].(string); s == "" {
		t.Errorf("vocabulary_not_shown %v, want an explanation", m["vocabulary_not_shown"])
	}
	if m["workspace"] != nil {
		t.Errorf("workspace %v, want null", m["workspace"])
	}
	if n := len(m["workspaces"].([]any)); n != 2 {
		t.Errorf("%d workspaces, want 2", n)
	}
	if n := len(m["link_types"].([]any)); n != 0 {
		t.Errorf("%d link types shown without a workspace", n)
	}
	for entity, list := range m["statuses"].(map[string]any) {
		if len(list.([]any)) != 0 {
			t.Errorf("%s statuses shown without a workspace", entity)
		}
	}
	for entity, list := range m["item_types"].(map[string]any) {
		if len(list.([]any)) != 0 {
			t.Errorf("%s item types shown without a workspace", entity)
		}
	}
	if len(m["error_codes"].([]any)) != len(app.AllCodes) {
		t.Error("error_codes must not depend on the workspace")
	}

	for _, ref := range []string{"second", second["id"].(string)} {
		m = e.OK(http.StatusOK, http.MethodGet, "/v1/meta?workspace_id="+ref, e.Admin, nil)
		if m["vocabulary_not_shown"] != nil {
			t.Errorf("workspace_id=%s: vocabulary_not_shown %v", ref, m["vocabulary_not_shown"])
		}
		if m["workspace"] != second["id"] {
			t.Errorf("workspace_id=%s: workspace %v, want %v", ref, m["workspace"], second["id"])
		}
		if len(m["link_types"].([]any)) == 0 || len(m["statuses"].(map[string]any)["task"].([]any)) == 0 {
			t.Errorf("workspace_id=%s: vocabulary not shown", ref)
		}
	}

	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/meta?workspace_id=nowhere", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/meta?workspace_id=00000000-0000-0000-0000-000000000000", e.Admin, nil)
}

func TestHealthProbes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if got := e.OK(http.StatusOK, http.MethodGet, "/healthz", "", nil); got["status"] != "ok" {
		t.Errorf("healthz %v", got)
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/readyz", "", nil); got["status"] != "ready" {
		t.Errorf("readyz %v", got)
	}

	// Closing the database makes the instance unable to serve; storetest's
	// own Close in Cleanup is then a no-op (Close runs once).
	if err := e.DB.Close(); err != nil {
		t.Fatal(err)
	}
	r := e.Do(http.MethodGet, "/readyz", "", nil)
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("readyz on a closed database: %d %s", r.Status, r.Body)
	}
	if got := r.JSON(t); got["status"] != "unavailable" {
		t.Errorf("readyz %v", got)
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/healthz", "", nil); got["status"] != "ok" {
		t.Errorf("healthz must not depend on the database: %v", got)
	}
}

func metaStrs(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("%v is %T, want an array", v, v)
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], ok = x.(string)
		if !ok {
			t.Fatalf("%v holds a %T, want strings", v, x)
		}
	}
	return out
}
