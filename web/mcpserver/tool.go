package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/web/wire"
)

// refArg is a ref sent as an integer or a string ("42", "#42" or an id).
type refArg = wire.FlexRef

// refsArg is one ref or an array of them (service_link).
type refsArg []wire.FlexRef

// UnmarshalJSON accepts a single ref or an array of refs.
func (r *refsArg) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		var many []wire.FlexRef
		if err := json.Unmarshal(t, &many); err != nil {
			return err
		}
		*r = many
		return nil
	}
	var one wire.FlexRef
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*r = refsArg{one}
	return nil
}

func (r refsArg) strings() []string {
	out := make([]string, len(r))
	for i, f := range r {
		out[i] = strings.TrimPrefix(string(f), "#")
	}
	return out
}

// argSchemas are the JSON schemas of the argument types that reflection
// would get wrong: a ref is an integer or a string, refs one or an array.
var argSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[refArg]():      {Types: []string{"integer", "string"}},
	reflect.TypeFor[refsArg]():     {Types: []string{"integer", "string", "array"}, Items: &jsonschema.Schema{Types: []string{"integer", "string"}}},
	reflect.TypeFor[claimRefArg](): {Types: []string{"integer", "string"}},
}

// inputSchema infers T's schema: json names, jsonschema descriptions,
// fields without omitempty required. Optional pointers and slices are
// written as their plain type: an agent omits an argument rather than
// sending null.
func inputSchema[T any]() *jsonschema.Schema {
	s := inferSchema[T]()
	plainTypes(s)
	noBooleans(s, reflect.TypeFor[T]().String())
	return s
}

// outputSchema is T's schema with nested records named only as objects:
// the top level says what structuredContent holds, and the records are the
// HTTP API's shapes, described once in GET /v1/meta and docs/api.md
// instead of in every tools/list. It names the members that are there and
// forbids none besides: a client that validates with it keeps working the
// day a member is added (the TypeScript SDK caches tool lists).
func outputSchema[T any]() *jsonschema.Schema {
	s := inferSchema[T]()
	s.AdditionalProperties = nil
	for _, p := range s.Properties {
		p.Properties, p.Required, p.AdditionalProperties, p.PropertyOrder = nil, nil, nil, nil
		if p.Items != nil {
			p.Items = &jsonschema.Schema{Types: p.Items.Types, Type: p.Items.Type}
		}
	}
	noBooleans(s, reflect.TypeFor[T]().String())
	return s
}

func inferSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: argSchemas})
	if err != nil {
		panic(err)
	}
	return s
}

func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
	plainTypes(s.AdditionalProperties)
}

// noBooleans rewrites s so that no subschema is a boolean schema, which
// inference writes for an `any` (true) and a struct's closed set of
// members (additionalProperties: false). Both are valid JSON Schema, but
// the official TypeScript SDK (1.32) refuses a whole tools/list in which
// one property's schema is not an object, and hosts built on it then
// reach no tool at all. A `true` where leaving the keyword out means the
// same is left out. The one boolean kept is additionalProperties: false,
// which every SDK's own schema generator writes and every client reads.
// Any other boolean stops the server from starting, naming where it is:
// such a member must say what it holds (a jsonschema tag, or an entry in
// argSchemas), so no tool can be registered with one.
func noBooleans(s *jsonschema.Schema, at string) {
	if s == nil {
		return
	}
	// Keywords where a true schema constrains nothing.
	for _, kw := range []struct {
		name string
		p    **jsonschema.Schema
	}{
		{"items", &s.Items}, {"additionalItems", &s.AdditionalItems}, {"unevaluatedItems", &s.UnevaluatedItems},
		{"additionalProperties", &s.AdditionalProperties}, {"unevaluatedProperties", &s.UnevaluatedProperties},
		{"propertyNames", &s.PropertyNames}, {"then", &s.Then}, {"else", &s.Else}, {"contentSchema", &s.ContentSchema},
	} {
		switch {
		case isBoolSchema(*kw.p, "true"):
			*kw.p = nil
		case kw.name == "additionalProperties" && isBoolSchema(*kw.p, "false"):
		default:
			noBooleans(*kw.p, at+"."+kw.name)
		}
	}
	for _, kw := range []struct {
		name string
		s    *jsonschema.Schema
	}{{"contains", s.Contains}, {"not", s.Not}, {"if", s.If}} {
		subschema(kw.s, at+"."+kw.name)
	}
	for name, list := range map[string][]*jsonschema.Schema{
		"prefixItems": s.PrefixItems, "items": s.ItemsArray, "allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf,
	} {
		for i, sub := range list {
			subschema(sub, fmt.Sprintf("%s.%s[%d]", at, name, i))
		}
	}
	for name, m := range map[string]map[string]*jsonschema.Schema{
		"properties": s.Properties, "patternProperties": s.PatternProperties, "dependentSchemas": s.DependentSchemas,
		"$defs": s.Defs, "definitions": s.Definitions, "dependencies": s.DependencySchemas,
	} {
		for k, sub := range m {
			subschema(sub, at+"."+name+"."+k)
		}
	}
}

// subschema is noBooleans for a place where a boolean cannot be left out.
func subschema(s *jsonschema.Schema, at string) {
	if isBoolSchema(s, "true") || isBoolSchema(s, "false") {
		panic(fmt.Sprintf("mcpserver: the tool schema at %s is a boolean schema, which MCP clients refuse; say what it holds with a jsonschema tag or an argSchemas entry", at))
	}
	noBooleans(s, at)
}

// isBoolSchema is whether s is encoded as the boolean schema want.
func isBoolSchema(s *jsonschema.Schema, want string) bool {
	if s == nil {
		return false
	}
	b, err := json.Marshal(s)
	return err == nil && string(b) == want
}

// toolSchemas is what a tool's types give it: the input schema, resolved
// for checking arguments and as its JSON (the SDK marshals a tool's input
// schema again on every 2026-07-28 call, to look for Mcp-Param header
// bindings, and bytes marshal without reflection), and the output schema.
type toolSchemas struct {
	in     *jsonschema.Schema
	check  *jsonschema.Resolved
	inJSON json.RawMessage
	out    *jsonschema.Schema
}

// schemaCache holds each pair of types' toolSchemas, by [In, Out]: they are
// the same for every server in the process, and inferring them was nearly
// all of the CPU a new server took (the tests start hundreds).
var schemaCache sync.Map

func schemasOf[In, Out any]() *toolSchemas {
	key := [2]reflect.Type{reflect.TypeFor[In](), reflect.TypeFor[Out]()}
	if c, ok := schemaCache.Load(key); ok {
		return c.(*toolSchemas)
	}
	in := inputSchema[In]()
	check, err := in.Resolve(nil)
	if err != nil {
		panic(err)
	}
	inJSON, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	c, _ := schemaCache.LoadOrStore(key, &toolSchemas{in: in, check: check, inJSON: inJSON, out: outputSchema[Out]()})
	return c.(*toolSchemas)
}

// toolFunc is what a tool does for one caller: the compact text for the
// model and the full records for structuredContent.
type toolFunc[In, Out any] func(ctx context.Context, a app.Actor, in In) (string, Out, error)

// addTool registers a tool whose arguments decode into In and whose
// structuredContent is an Out. Every failure, from unknown arguments to a
// refusal by the Service, is an isError result that starts with the
// stable code; none is a JSON-RPC error.
func addTool[In, Out any](m *toolbox, t *mcp.Tool, f toolFunc[In, Out]) {
	sch := schemasOf[In, Out]()
	in, check := sch.in, sch.check
	t.InputSchema, t.OutputSchema = sch.inJSON, sch.out
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, err := m.who(ctx, req.Extra)
		if err != nil {
			return toolFailure(err), nil
		}
		var args In
		if err := decodeArgs(req.Params.Arguments, in.Required, check, &args); err != nil {
			return toolFailure(err), nil
		}
		text, out, err := f(ctx, a, args)
		if err != nil {
			switch {
			case errors.Is(ctx.Err(), context.Canceled): // the client went away or cancelled the call
				m.s.log.DebugContext(ctx, "mcp tool: the caller went away", "tool", t.Name)
			case app.CodeOf(err) == app.CodeInternal:
				m.s.log.ErrorContext(ctx, "mcp tool", "tool", t.Name, "err", err)
			}
			return toolFailure(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: out}, nil
	}
	m.srv.AddTool(t, h)
	m.tools[t.Name] = h
}

// decodeArgs reads a tool's arguments strictly: unknown names (with the
// name meant and the names there are), missing required arguments, wrong
// types and refs that cannot name an item are refused with the argument's
// name, in that order.
func decodeArgs(raw json.RawMessage, required []string, check *jsonschema.Resolved, dst any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(raw, &present); err != nil || present == nil {
		return app.Invalidf("arguments", "arguments are a JSON object")
	}
	if err := checkArgNames(present, required, check.Schema(), "arguments"); err != nil {
		return err
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	if err := check.Validate(v); err != nil {
		return app.Invalidf("arguments", "%s", schemaMessage(err))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil && !errors.Is(err, io.EOF) {
		return wire.DecodeError(err, raw, dst, toolArguments)
	}
	return checkRefArgs(reflect.ValueOf(dst), "arguments", true)
}

// schemaMessage shortens the validator's message to its last clause,
// which names the argument and what was wrong with it.
func schemaMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "validating /properties/"); i >= 0 {
		msg = strings.TrimPrefix(msg[i:], "validating /properties/")
	}
	return msg
}

// toolArguments are a tool call's arguments, decoded as a body is.
var toolArguments = wire.Input{Loc: "arguments", Noun: "the arguments"}

// argError locates a refusal by the Service in the arguments: a tool's
// arguments are the body of its request, and the Service names a member
// of a body as the location ["body", member].
func argError(err error) error {
	if err == nil || app.CodeOf(err) == app.CodeInternal {
		return err
	}
	e := app.AsError(err)
	for i := range e.Fields {
		if len(e.Fields[i].Loc) > 0 && e.Fields[i].Loc[0] == wire.RequestBody.Loc {
			e.Fields[i].Loc[0] = toolArguments.Loc
		}
	}
	return e
}

// toolFailure is the isError result for err: the stable code, what was
// wrong, and what to do about it, as the problem document would say.
func toolFailure(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(errors.New(toolErrorText(err)))
	return &res
}

// toolErrorText is "code: detail" plus the fix, with the fields a client
// acts on (a claim's holder and expiry) spelled out.
func toolErrorText(err error) string {
	p := wire.NewProblem(err)
	var b strings.Builder
	b.WriteString(string(p.Code))
	b.WriteString(": ")
	switch d := p.Detail.(type) {
	case string:
		b.WriteString(d)
	case []wire.ValidationItem:
		parts := make([]string, len(d))
		for i, v := range d {
			parts[i] = strings.Join(v.Loc, ".") + ": " + v.Msg
		}
		b.WriteString(strings.Join(parts, "; "))
	default:
		b.WriteString(p.Title)
	}
	for _, k := range slices.Sorted(maps.Keys(p.Extra)) {
		fmt.Fprintf(&b, "\n%s: %v", k, p.Extra[k])
	}
	if fix := toolFixes[p.Code]; fix != "" {
		b.WriteString("\nfix: ")
		b.WriteString(fix)
	}
	return b.String()
}

// toolFixes names the call that gets an agent past a refusal.
var toolFixes = map[app.Code]string{
	app.CodeUnauthorized:      "the credential is revoked, expired or its account (or the person it answers to) is inactive; ask its owner for a new one",
	app.CodeNotFound:          "check the ref with service_search or service_list; what you may not see answers like this too",
	app.CodeVersionConflict:   "service_show the item, then send your change again with expected_version set to its current version",
	app.CodeClaimHeld:         "service_claim ref \"next\" for other ready work, or wait until the claim expires",
	app.CodeTaskClosed:        "the task is done or cancelled: service_claim ref \"next\" for ready work, or service_update status to reopen it",
	app.CodeNothingReady:      "service_list to_act_on:true shows what is waiting; service_add records new work",
	app.CodeWorkspaceRequired: "pass workspace (service_whoami lists yours)",
	app.CodeForbidden:         "the credential may not do this here; service_whoami shows its scopes and narrowing",
	app.CodeAmbiguous:         "send more words, enough to match exactly one",
	app.CodeValidation:        "correct the named arguments and call again",
	app.CodeInvalid:           "correct the named arguments and call again",
}
