package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"tend/app"
	"tend/web/wire"
)

// claimRefArg is service_claim's ref: a ref, an id, or "next".
type claimRefArg wire.FlexRef

// UnmarshalJSON reads the ref as wire.FlexRef does.
func (r *claimRefArg) UnmarshalJSON(b []byte) error {
	return (*wire.FlexRef)(r).UnmarshalJSON(b)
}

// checkArgNames refuses argument names the schema s does not have, each
// with the name it most likely meant and the names there are, and then
// the required ones left out. Objects nested in the arguments (a
// verification, each of a list of links) are checked the same way, at
// their place (arguments.links.0.target). Names come first: a mistyped
// name is reported as itself, not as the required argument it left out.
func checkArgNames(present map[string]json.RawMessage, required []string, s *jsonschema.Schema, loc string) error {
	bad := &app.Error{Code: app.CodeValidation}
	names := slices.Sorted(maps.Keys(s.Properties))
	for _, k := range slices.Sorted(maps.Keys(present)) {
		if _, ok := s.Properties[k]; !ok {
			bad.Fields = append(bad.Fields, app.FieldError{Loc: locOf(loc, k), Msg: unknownArg(k, names, loc)})
		}
	}
	if len(bad.Fields) == 0 {
		for _, name := range required {
			if v, ok := present[name]; !ok || string(v) == "null" {
				bad.Fields = append(bad.Fields, app.FieldError{Loc: locOf(loc, name), Msg: name + " is required"})
			}
		}
	}
	if len(bad.Fields) > 0 {
		bad.Detail = bad.Fields[0].Msg
		return bad
	}
	for _, k := range slices.Sorted(maps.Keys(present)) {
		if err := checkNestedNames(present[k], s.Properties[k], loc+"."+k); err != nil {
			return err
		}
	}
	return nil
}

// checkNestedNames checks the names of an argument that is an object, or
// an array of objects, with properties of its own.
func checkNestedNames(raw json.RawMessage, s *jsonschema.Schema, loc string) error {
	var obj map[string]json.RawMessage
	switch {
	case len(s.Properties) > 0:
		if json.Unmarshal(raw, &obj) == nil && obj != nil {
			return checkArgNames(obj, s.Required, s, loc)
		}
	case s.Items != nil && len(s.Items.Properties) > 0:
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		for i, el := range list {
			obj = nil
			if json.Unmarshal(el, &obj) == nil && obj != nil {
				if err := checkArgNames(obj, s.Items.Required, s.Items, loc+"."+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	}
	// Anything else is left to the schema's type check.
	return nil
}

// unknownArg says that name is not an argument at loc, which one it most
// likely meant, and which there are.
func unknownArg(name string, names []string, loc string) string {
	msg, are := fmt.Sprintf("unknown argument %q", name), "the arguments are "
	if loc != "arguments" {
		msg, are = fmt.Sprintf("unknown field %q in %s", name, strings.TrimPrefix(loc, "arguments.")), "its fields are "
	}
	msg += app.DidYouMean(name, names)
	if len(names) == 0 {
		return msg + "; this tool takes no arguments"
	}
	return msg + "; " + are + strings.Join(names, ", ")
}

func locOf(loc, name string) []string {
	return append(strings.Split(loc, "."), name)
}

// checkRefArgs refuses a ref argument that cannot name an item ("abc"), so
// that a mistyped ref is a validation error naming the argument, not a
// not_found that sends the agent looking for an item. It walks the
// decoded arguments: every refArg, refsArg and claimRefArg, in nested
// objects and lists too. An optional ref left empty is no ref.
func checkRefArgs(v reflect.Value, loc string, required bool) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkRefArgs(v.Elem(), loc, required)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if err := checkRefArgs(v.Field(i), loc+"."+name, !strings.Contains(opts, "omitempty")); err != nil {
				return err
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			at := loc
			if v.Type() != refsArgType || v.Len() > 1 {
				at = loc + "." + strconv.Itoa(i)
			}
			if err := checkRefArgs(v.Index(i), at, true); err != nil {
				return err
			}
		}
	case reflect.String:
		s := v.String()
		switch {
		case v.Type() != refArgType && v.Type() != claimRefArgType:
		case s == "" && !required:
		case v.Type() == claimRefArgType && strings.TrimPrefix(s, "#") == "next":
		default:
			return app.CheckRef(loc, s)
		}
	}
	return nil
}

var (
	refArgType      = reflect.TypeFor[refArg]()
	refsArgType     = reflect.TypeFor[refsArg]()
	claimRefArgType = reflect.TypeFor[claimRefArg]()
)
