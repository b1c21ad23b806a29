package web

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"tend/app"
	"tend/store/storetest"
)

// TestOpenAPIRoutes requires the document and the router to name the same
// routes: every route web.NewServer registers (the API, the probes, MCP,
// the feeds, the web app's pages, sign-in) is a documented operation, and
// every documented operation is a route. The router keeps what it
// registered, so the list is read, never written twice.
func TestOpenAPIRoutes(t *testing.T) {
	t.Parallel()
	s := NewServer(app.New(storetest.Open(t), app.Options{Version: "test"}), slog.New(slog.DiscardHandler))
	var registered []string
	for _, r := range *s.router.registered {
		method, path, _ := strings.Cut(r, " ")
		p, _ := openapiPath(path)
		registered = append(registered, method+" "+p)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for p, item := range doc.Paths {
		for m := range item {
			documented = append(documented, strings.ToUpper(m)+" "+p)
		}
	}
	slices.Sort(registered)
	slices.Sort(documented)
	if len(registered) < 150 {
		t.Fatalf("only %d routes registered: the router's record of them is broken", len(registered))
	}
	for _, r := range registered {
		if _, found := slices.BinarySearch(documented, r); !found {
			t.Errorf("route %s is not in the OpenAPI document (web/openapi.go)", r)
		}
	}
	for _, d := range documented {
		if _, found := slices.BinarySearch(registered, d); !found {
			t.Errorf("documented operation %s is not a route", d)
		}
	}
	if c := slices.Compact(slices.Clone(registered)); len(c) != len(registered) {
		t.Errorf("a route is registered twice")
	}
}
