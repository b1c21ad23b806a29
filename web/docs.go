package web

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"tend/app"
)

//go:embed docs/agent.md
var agentGuide string

//go:embed docs/examples.json
var examplesJSON []byte

// example is one worked call: a request over HTTP or a tool call over MCP,
// the answer's status and the part of the answer worth showing. The test
// suite runs every example, in order, against a fresh instance, so they
// never drift from what the product does. "{ref}" in a path stands for the
// ref the previous example answered.
type example struct {
	Title    string          `json:"title"`
	HTTP     *exampleHTTP    `json:"http,omitempty"`
	MCP      *exampleMCP     `json:"mcp,omitempty"`
	Status   int             `json:"status,omitempty"`
	IsError  bool            `json:"is_error,omitempty"`
	Text     string          `json:"text,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
}

type exampleHTTP struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

type exampleMCP struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

func loadExamples() []example {
	var ex []example
	if err := json.Unmarshal(examplesJSON, &ex); err != nil {
		panic("web/docs/examples.json: " + err.Error())
	}
	return ex
}

// examplesMarkdown renders the examples for GET /v1/docs/examples and
// service://docs/examples.
func examplesMarkdown() string {
	var b strings.Builder
	b.WriteString("# Worked calls\n\nEach call below was made, in this order, against a fresh instance by tend's test suite; " +
		"responses show the fields that matter. `{ref}` is the ref the call before answered. HTTP calls carry " +
		"`Authorization: Bearer <token>`; MCP calls are `tools/call` on POST /mcp or `tend mcp`.\n")
	for i, e := range loadExamples() {
		fmt.Fprintf(&b, "\n## %d. %s\n\n", i+1, e.Title)
		if e.HTTP != nil {
			fmt.Fprintf(&b, "```http\n%s %s\n", e.HTTP.Method, e.HTTP.Path)
			if len(e.HTTP.Body) > 0 {
				fmt.Fprintf(&b, "Content-Type: application/json\n\n%s\n", e.HTTP.Body)
			}
			fmt.Fprintf(&b, "```\n\nAnswers %d:\n\n```json\n%s\n```\n", e.Status, e.Response)
			continue
		}
		fmt.Fprintf(&b, "```json\n{\"method\": \"tools/call\", \"params\": {\"name\": %q, \"arguments\": %s}}\n```\n\n", e.MCP.Tool, e.MCP.Arguments)
		kind := "Result"
		if e.IsError {
			kind = "isError result"
		}
		fmt.Fprintf(&b, "%s text begins:\n\n```\n%s\n```\n", kind, e.Text)
		if len(e.Response) > 0 {
			fmt.Fprintf(&b, "\nstructuredContent includes:\n\n```json\n%s\n```\n", e.Response)
		}
	}
	return b.String()
}

func writeMarkdown(w http.ResponseWriter, text string) error {
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write([]byte(text))
	return err
}

// handleDocsAgent serves the guide for agents (Markdown).
func (s *Server) handleDocsAgent(w http.ResponseWriter, r *http.Request, _ app.Actor) error {
	return writeMarkdown(w, agentGuide)
}

// handleDocsExamples serves the worked calls (Markdown).
func (s *Server) handleDocsExamples(w http.ResponseWriter, r *http.Request, _ app.Actor) error {
	return writeMarkdown(w, examplesMarkdown())
}
