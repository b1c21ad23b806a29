package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
)

// conventionExcerpt is how much of each binding document's body
// service://conventions quotes; service_show reads the rest.
const conventionExcerpt = 280

func (m *toolbox) addResources() {
	m.srv.AddResource(&mcp.Resource{URI: "service://conventions", Name: "conventions", MIMEType: "text/markdown",
		Description: "What is in force and binds work here: governing documents, task statuses, link types. Read before starting."}, m.readConventions)
	m.srv.AddResource(&mcp.Resource{URI: "service://meta", Name: "meta", MIMEType: "application/json",
		Description: "This workspace's keys: statuses, item types, link types, tags, projects, limits, error codes (GET /v1/meta)."},
		m.readAPI("/v1/meta", "application/json"))
	m.srv.AddResource(&mcp.Resource{URI: "service://docs/examples", Name: "examples", MIMEType: "text/markdown",
		Description: "Worked calls over HTTP and MCP, each checked against a fresh instance by the test suite."},
		m.readAPI("/v1/docs/examples", "text/markdown"))
}

func textResource(uri, mime, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}
}

func (m *toolbox) readConventions(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	a, err := m.who(ctx, req.Extra)
	if err != nil {
		return nil, resourceError(err)
	}
	c, err := m.s.app.Conventions(ctx, a, "")
	if err != nil {
		return nil, resourceError(err)
	}
	return textResource(req.Params.URI, "text/markdown", conventionsText(c)), nil
}

// conventionsText renders what binds work in one workspace as Markdown.
func conventionsText(c app.Conventions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Conventions in %s\n\n## Documents in force that bind work\n\n", c.Workspace.Slug)
	if len(c.Documents) == 0 {
		b.WriteString("None yet. A decision, spec, design or dead end in force binds the items it is linked to.\n")
	}
	for _, d := range c.Documents {
		fmt.Fprintf(&b, "- #%d %s (%s, %s): %s\n", d.Ref, d.Title, d.Type.Key, d.ProjectPath, excerptOf(d.Body, conventionExcerpt))
	}
	if c.DocumentsMore {
		b.WriteString("- … more: GET /v1/documents?status_category=in_progress\n")
	}
	b.WriteString("\n## Task statuses (readiness and completion read the category)\n\n")
	for _, st := range c.Statuses {
		def := ""
		if st.IsDefault {
			def = ", default"
		}
		fmt.Fprintf(&b, "- %s: %s (%s%s)\n", st.Key, st.Label, st.Category, def)
	}
	b.WriteString("\n## Link types\n\nSequencing links hold work back: a task is not ready while something unfinished blocks or precedes it. " +
		"Governing links make a document in force bind an item.\n\n")
	for _, lt := range c.LinkTypes {
		fmt.Fprintf(&b, "- %s (%s): \"%s\" / \"%s\"\n", lt.Key, lt.Category, lt.Title, lt.InverseTitle)
	}
	return b.String()
}

// excerptOf is the start of a Markdown body on one line.
func excerptOf(body string, n int) string {
	s := strings.Join(strings.Fields(body), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	if s == "" {
		return "(no text)"
	}
	return s
}

// readAPI reads a resource that is a JSON API route's answer, GET path,
// served as media.
func (m *toolbox) readAPI(path, media string) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		a, err := m.who(ctx, req.Extra)
		if err != nil {
			return nil, resourceError(err)
		}
		_, body, err := m.s.callAPI(ctx, a, http.MethodGet, path, nil, nil)
		if err != nil {
			return nil, resourceError(err)
		}
		return textResource(req.Params.URI, media, string(body)), nil
	}
}

// resourceError is a failed read: the stable code and what to do.
func resourceError(err error) error {
	return fmt.Errorf("%s", toolErrorText(err))
}
