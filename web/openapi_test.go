package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"tend/app"
	"tend/internal/golden"
	"tend/web"
	"tend/web/webtest"
)

// TestOpenAPIGolden keeps docs/openapi.json equal to what GET /openapi.json
// serves, with no credential; `go test ./web/ -run TestOpenAPIGolden
// -update` writes it anew after a change to a route or a wire type.
func TestOpenAPIGolden(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.Do(http.MethodGet, "/openapi.json", "", nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %s\n%.500s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	golden.Check(t, "../docs/openapi.json", r.Body)
}

// TestOpenAPIIsValid checks the document against the OpenAPI 3.1
// specification's own schema.
func TestOpenAPIIsValid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	doc, err := libopenapi.NewDocument(e.Do(http.MethodGet, "/openapi.json", "", nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	if doc.GetVersion() != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", doc.GetVersion())
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("%s: %s", e.Message, e.Reason)
		}
	}
}

// TestOpenAPIETag: the document carries an ETag; asked again with it in
// If-None-Match it answers 304 with no body, and with another 200.
func TestOpenAPIETag(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.Do(http.MethodGet, "/openapi.json", "", nil)
	etag := r.Header.Get("ETag")
	if r.Status != http.StatusOK || len(etag) < 10 || etag[0] != '"' {
		t.Fatalf("status %d, ETag %q", r.Status, etag)
	}
	for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
		if got := cond(t, e, inm); got.Status != http.StatusNotModified || len(got.Body) != 0 || got.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q; want 304, none, the same", inm, got.Status, len(got.Body), got.Header.Get("ETag"))
		}
	}
	if got := cond(t, e, `"stale"`); got.Status != http.StatusOK || !bytes.Equal(got.Body, r.Body) {
		t.Errorf("a stale ETag: %d, want 200 and the document", got.Status)
	}
}

func cond(t *testing.T, e *env, inm string) webtest.Response {
	t.Helper()
	req := e.Request(http.MethodGet, "/openapi.json", nil)
	req.Header.Set("If-None-Match", inm)
	return e.Send(req)
}

// TestOpenAPIProblemCodes: the problem schema's code is an enum of exactly
// the app's codes, in their order (app.AllCodes, which
// TestProblemTypesCoverAllCodes keeps equal to wire's table of codes).
func TestOpenAPIProblemCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var doc struct {
		Components struct {
			Schemas struct {
				Problem struct {
					Properties struct {
						Code struct {
							Enum []string `json:"enum"`
						} `json:"code"`
					} `json:"properties"`
				} `json:"Problem"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(e.Do(http.MethodGet, "/openapi.json", "", nil).Body, &doc); err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(app.AllCodes))
	for i, c := range app.AllCodes {
		want[i] = string(c)
	}
	if got := doc.Components.Schemas.Problem.Properties.Code.Enum; !slices.Equal(got, want) {
		t.Errorf("problem code enum %v\nwant %v", got, want)
	}
}

// TestOpenAPIRecordsAreReferred: each wire record is described once, as a
// component, and every answer or record that carries it refers to it: no
// object schema outside components.schemas' own entries has the members
// of a component (the task was inlined 15 times before).
func TestOpenAPIRecordsAreReferred(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths      map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(web.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	members := func(s map[string]any) string {
		props, _ := s["properties"].(map[string]any)
		var names []string
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		return strings.Join(names, ",")
	}
	component := map[string]string{} // members → component
	for name, s := range doc.Components.Schemas {
		if m := members(s); m != "" {
			component[m] = name
		}
	}
	refs := map[string]int{}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if name, ok := component[members(v)]; ok && members(v) != "" {
				t.Errorf("%s is an inlined copy of the component %s", at, name)
			}
			if ref, ok := v["$ref"].(string); ok {
				refs[strings.TrimPrefix(ref, "#/components/schemas/")]++
			}
			for k, x := range v {
				walk(at+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprint(at, "/", i), x)
			}
		}
	}
	walk("#/paths", doc.Paths)
	for name, s := range doc.Components.Schemas {
		for k, x := range s {
			walk("#/components/schemas/"+name+"/"+k, x)
		}
	}
	for name := range doc.Components.Schemas {
		if refs[name] == 0 {
			t.Errorf("the component %s is referred to nowhere", name)
		}
	}
	if refs["Task"] < 10 || refs["LinkEnd"] == 0 {
		t.Errorf("the task is referred to %d times, a link's far end %d: records are inlined again", refs["Task"], refs["LinkEnd"])
	}
}
