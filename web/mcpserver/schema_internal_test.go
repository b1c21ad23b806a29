package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type schemaAnyArg struct {
	Value any `json:"value"`
}

type schemaLooseArgs struct {
	Body  map[string]any `json:"body,omitempty" jsonschema:"a JSON object"`
	List  []any          `json:"list,omitempty" jsonschema:"values"`
	Value any            `json:"value,omitempty" jsonschema:"any JSON value"`
}

type schemaNested struct {
	Inner schemaAnyArg `json:"inner"`
}

// A member that would be the boolean schema true stops the tool from being
// registered, naming where it is; one that says what it holds is an object
// schema, and a true where leaving the keyword out means the same is left
// out. So no tool can bring back the `"body": true` that made the
// TypeScript SDK refuse tools/list.
func TestNoBooleanSchemas(t *testing.T) {
	t.Parallel()
	for name, build := range map[string]func(){
		"input":  func() { inputSchema[schemaAnyArg]() },
		"output": func() { outputSchema[schemaAnyArg]() },
		"nested": func() { inputSchema[schemaNested]() },
	} {
		got := fmt.Sprint(panicOf(build))
		if !strings.Contains(got, "schemaAnyArg.properties.value is a boolean schema") && !strings.Contains(got, "properties.inner.properties.value is a boolean schema") {
			t.Errorf("%s: panic %q, want one naming the member", name, got)
		}
	}
	for name, s := range map[string]any{"input": inputSchema[schemaLooseArgs](), "output": outputSchema[schemaLooseArgs]()} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"type":"object","properties":{"body":{"type":"object","description":"a JSON object"},` +
			`"list":{"type":"array","description":"values"},"value":{"description":"any JSON value"}},"additionalProperties":false}`
		if name == "output" {
			want = `{"type":"object","properties":{"body":{"type":"object","description":"a JSON object"},` +
				`"list":{"type":["null","array"],"description":"values"},"value":{"description":"any JSON value"}}}`
		}
		if string(b) != want {
			t.Errorf("%s schema:\n got %s\nwant %s", name, b, want)
		}
	}
}

func panicOf(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
