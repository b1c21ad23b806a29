package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"tend/web/webtest"
)

// toolsListBudget is the most bytes tools/list may take: every host sends
// the whole list to the model before the first call.
const toolsListBudget = 16 << 10

// rawToolsList is the result of tools/list exactly as POST /mcp sends it.
func (e *env) rawToolsList(t *testing.T) json.RawMessage {
	t.Helper()
	on := e.On(t)
	req := on.Request(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", webtest.EraHandshake)
	req.Header.Set("Authorization", "Bearer "+e.Admin)
	r := on.Send(req)
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.Body, &msg); err != nil || r.Status != http.StatusOK || len(msg.Result) == 0 {
		t.Fatalf("tools/list: %d %s", r.Status, r.Body)
	}
	return msg.Result
}

// Every tool's input and output schema, as tools/list serves it, is a valid
// JSON Schema 2020-12 document that the official SDKs accept: its root an
// object schema, every property's schema an object, and no boolean
// subschema anywhere but additionalProperties: false (the TypeScript SDK
// 1.32 refused the whole list over one `"body": true`).
func TestMCPToolSchemasAccepted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(e.rawToolsList(t), &list); err != nil || len(list.Tools) != len(specTools) {
		t.Fatalf("tools/list: %v, %d tools", err, len(list.Tools))
	}
	for _, tool := range list.Tools {
		if len(tool.OutputSchema) == 0 {
			t.Errorf("%s has no output schema", tool.Name)
		}
		for kind, raw := range map[string]json.RawMessage{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			for _, problem := range schemaProblems(raw) {
				t.Errorf("%s.%s: %s", tool.Name, kind, problem)
			}
		}
	}
}

// The checks are not empty: each refuses what it is there to refuse.
func TestSchemaProblemsFindsWhatClientsRefuse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"body":true,"status":{"type":"integer"}}}`, "$.properties.body is the boolean schema true"},
		{`{"type":"object","properties":{"a":{"type":"array","items":false}}}`, "$.properties.a.items is the boolean schema false"},
		{`{"type":"object","properties":{"a":{"type":"object","additionalProperties":true}}}`, "$.properties.a.additionalProperties is the boolean schema true"},
		{`{"type":"object","properties":{"a":{"anyOf":[true,{"type":"string"}]}}}`, "$.properties.a.anyOf[0] is the boolean schema true"},
		{`{"type":"object","properties":{"a":{"type":"strin"}}}`, "not a valid JSON Schema 2020-12"},
		{`{"type":"object","properties":{"a":{"minLength":-1}}}`, "not a valid JSON Schema 2020-12"},
		{`{"type":"array"}`, `root "type" is "array"`},
		{`{"type":"object","required":["b"],"properties":{"a":{}}}`, `requires "b", which it does not define`},
		{`true`, "not a JSON object"},
	} {
		problems := schemaProblems(json.RawMessage(c.schema))
		if !strings.Contains(strings.Join(problems, "\n"), c.want) {
			t.Errorf("%s: problems %q, want one saying %q", c.schema, problems, c.want)
		}
	}
	if p := schemaProblems(json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"object","additionalProperties":false,"properties":{}}}}`)); len(p) > 0 {
		t.Errorf("additionalProperties: false is what every SDK writes, refused: %q", p)
	}
}

// metaSchema is the JSON Schema 2020-12 meta-schema (built into the
// validator, so no network is needed).
var metaSchema = jsonschema.NewCompiler().MustCompile("https://json-schema.org/draft/2020-12/schema")

// schemaProblems lists what an MCP client would refuse in a tool's schema.
func schemaProblems(raw json.RawMessage) []string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return []string{"not a JSON object: " + string(raw)}
	}
	var problems []string
	if err := metaSchema.Validate(doc); err != nil {
		problems = append(problems, fmt.Sprintf("not a valid JSON Schema 2020-12: %v", err))
	} else {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("tool.json", doc); err != nil {
			problems = append(problems, err.Error())
		} else if _, err := c.Compile("tool.json"); err != nil {
			problems = append(problems, fmt.Sprintf("does not compile: %v", err))
		}
	}
	// The MCP schema for a tool: the root is an object schema.
	if root["type"] != "object" {
		problems = append(problems, fmt.Sprintf("root \"type\" is %q, MCP wants \"object\"", root["type"]))
	}
	props, _ := root["properties"].(map[string]any)
	required, _ := root["required"].([]any)
	for _, r := range required {
		if name, _ := r.(string); props[name] == nil {
			problems = append(problems, fmt.Sprintf("requires %q, which it does not define", r))
		}
	}
	return append(problems, booleanSubschemas(root, "$")...)
}

// The keywords of JSON Schema 2020-12 (and the older ones still read) whose
// values are schemas: one, an array of them, or an object of them.
var (
	oneSchema    = []string{"additionalProperties", "items", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "propertyNames", "contains", "not", "if", "then", "else", "contentSchema"}
	schemaList   = []string{"prefixItems", "allOf", "anyOf", "oneOf", "items"}
	schemaByName = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
)

// booleanSubschemas names every subschema of s that is a boolean, but for
// additionalProperties: false.
func booleanSubschemas(s map[string]any, at string) []string {
	var found []string
	visit := func(v any, path, keyword string) {
		switch v := v.(type) {
		case bool:
			if keyword != "additionalProperties" || v {
				found = append(found, fmt.Sprintf("%s is the boolean schema %v", path, v))
			}
		case map[string]any:
			found = append(found, booleanSubschemas(v, path)...)
		}
	}
	for _, k := range oneSchema {
		if v, ok := s[k]; ok {
			visit(v, at+"."+k, k)
		}
	}
	for _, k := range schemaList {
		list, _ := s[k].([]any)
		for i, v := range list {
			visit(v, fmt.Sprintf("%s.%s[%d]", at, k, i), k)
		}
	}
	for _, k := range schemaByName {
		m, _ := s[k].(map[string]any)
		for name, v := range m {
			visit(v, at+"."+k+"."+name, k)
		}
	}
	return found
}

// tools/list stays within its budget, counted as the bytes of the result
// POST /mcp sends. Recorded in BENCHMARKS.md (MCP).
func TestMCPToolsListSize(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := len(e.rawToolsList(t))
	t.Logf("tools/list: %d bytes (budget %d)", n, toolsListBudget)
	if n > toolsListBudget {
		t.Errorf("tools/list is %d bytes; the budget is %d", n, toolsListBudget)
	}
}
