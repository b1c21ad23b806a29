package mcpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/web/webtest"
)

// A private project's items are, through every MCP read, exactly as absent
// as items that never existed.
func TestMCPDisclosure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Member("bob", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	hidden := e.TaskRef(e.Admin, map[string]any{"title": "Zanzibar merger", "project": "sec"})
	hiddenDoc := int(e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin,
		map[string]any{"title": "Zanzibar terms", "type": "decision", "project": "sec", "body": "Zanzibar pays."})["ref"].(float64))
	seen := e.TaskRef(e.Admin, map[string]any{"title": "Public chore"})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", seen), e.Admin,
		map[string]any{"link_type": "relates_to", "target": hidden})
	absent := hiddenDoc + 100

	for _, era := range webtest.Eras {
		t.Run(era, func(t *testing.T) {
			m := e.Connect(t, bob, era)
			for _, call := range []struct {
				tool string
				args map[string]any
			}{
				{"service_list", nil}, {"service_list", map[string]any{"filter": map[string]any{"tag": "x"}}},
				{"service_search", map[string]any{"q": "zanzibar"}}, {"service_search", map[string]any{"q": "zanz"}}, {"service_changes", nil}, {"service_journal", nil},
				{"service_show", map[string]any{"ref": seen, "history": true, "tree": true}},
				{"service_project", nil}, {"service_whoami", nil},
			} {
				r := m.OK(call.tool, call.args)
				if strings.Contains(strings.ToLower(r.Text), "zanzibar") || strings.Contains(r.Text, "sec") && call.tool == "service_project" ||
					strings.Contains(fmt.Sprint(r.Structured), "anzibar") {
					t.Fatalf("%s %v discloses the private project:\n%s\n%v", call.tool, call.args, r.Text, r.Structured)
				}
			}
			if r := m.OK("service_list", map[string]any{"project": "inbox"}); strings.Contains(r.Text, fmt.Sprintf("#%d ", hidden)) {
				t.Fatalf("list: %s", r.Text)
			}
			m.Refused("validation", "service_list", map[string]any{"project": "sec"})
			for _, ref := range []int{hidden, hiddenDoc} {
				for _, tool := range []struct {
					name string
					args map[string]any
				}{
					{"service_show", map[string]any{"ref": ref}}, {"service_comment", map[string]any{"ref": ref, "body": "hi"}},
					{"service_claim", map[string]any{"ref": ref}}, {"service_done", map[string]any{"ref": ref}},
					{"service_update", map[string]any{"ref": ref, "title": "x"}},
					{"service_document", map[string]any{"ref": ref, "title": "x"}},
					{"service_link", map[string]any{"ref": seen, "other": ref}},
					{"service_call_api", map[string]any{"method": "GET", "path": fmt.Sprintf("/v1/tasks/%d", ref)}},
				} {
					got := m.Call(tool.name, tool.args)
					if _, ok := tool.args["ref"]; ok {
						tool.args["ref"] = absent
					}
					if tool.name == "service_link" {
						tool.args["ref"], tool.args["other"] = seen, absent
					}
					if tool.name == "service_call_api" {
						tool.args["path"] = fmt.Sprintf("/v1/tasks/%d", absent)
					}
					want := m.Call(tool.name, tool.args)
					got.Text = strings.ReplaceAll(got.Text, fmt.Sprint(ref), "N")
					want.Text = strings.ReplaceAll(want.Text, fmt.Sprint(absent), "N")
					if !got.IsError || got.Text != want.Text {
						t.Fatalf("%s on a hidden item answers %q; on an absent one %q", tool.name, got.Text, want.Text)
					}
				}
			}
			res, err := m.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "service://conventions"})
			if err != nil || strings.Contains(res.Contents[0].Text, "Zanzibar") {
				t.Fatalf("conventions: %v %v", err, res)
			}
			r := m.Call("service_claim", map[string]any{"ref": "next"})
			if r.IsError || r.Structured["task"].(map[string]any)["ref"] != float64(seen) {
				t.Fatalf("next hands out only what bob may see: %+v", r)
			}
			m.OK("service_claim", map[string]any{"ref": seen, "release": true})
		})
	}
}
