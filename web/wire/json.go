package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"tend/app"
)

// DecodeJSON reads exactly one JSON value into dst, refusing unknown
// fields, trailing data, bodies over limit bytes and text holding U+0000.
// An empty body is refused unless optional is set, in which case dst is
// left as it is (whatever the Content-Type: a body-less POST often
// carries one).
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any, optional bool, limit int) error {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	if err != nil {
		return DecodeError(err, nil, dst, RequestBody)
	}
	if optional && len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return app.Errorf(app.CodeUnsupportedMediaType, "send the body as application/json")
		}
	}
	return DecodeBody(raw, dst, limit)
}

// DecodeBody is DecodeJSON's reading of a body already in hand: a client
// that calls the Service with no HTTP between (the terminal commands on a
// database file) reads the body it would have sent here, so that it is
// read, and refused, exactly as the server would read it.
func DecodeBody(raw []byte, dst any, limit int) error {
	if len(raw) > limit {
		return app.Errorf(app.CodeTooLarge, "%s is over %d bytes", RequestBody.Noun, limit)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return app.Invalidf("body", "a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return DecodeError(err, raw, dst, RequestBody)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return app.Invalidf("body", "the body must hold exactly one JSON value")
	}
	return refuseNUL(raw)
}

// Input is a JSON document being decoded, as the errors that point into
// it name it: an HTTP request's body, a tool call's arguments.
type Input struct {
	Loc  string // the head of a location in it: body.title
	Noun string // the document in a sentence
}

// RequestBody is the body of an HTTP request.
var RequestBody = Input{Loc: "body", Noun: "the body"}

// DecodeError says where in the document doc decoding went wrong, as a
// 422 naming the field. encoding/json names the field only for its own
// type errors; for the rest (a time that does not parse, a type error
// inside a partial-update field) the field is found by decoding each
// member of the document alone.
func DecodeError(err error, raw []byte, dst any, doc Input) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var timeErr *time.ParseError
	switch {
	case errors.As(err, &tooLarge):
		return app.Errorf(app.CodeTooLarge, "%s is over %d bytes", doc.Noun, tooLarge.Limit)
	case errors.As(err, &syntaxErr):
		return app.Invalidf(doc.Loc, "%s is not valid JSON (at byte %d)", doc.Noun, syntaxErr.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json reports unknown fields only as text; the name is quoted at the end.
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return app.Invalidf(doc.Loc+"."+name, "unknown field %q", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return app.Invalidf(doc.Loc, "%s ends in the middle of a JSON value", doc.Noun)
	}
	loc := doc.Loc
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		loc += "." + typeErr.Field
	} else if name := failingMember(raw, dst); name != "" {
		loc += "." + name
	}
	switch {
	case errors.As(err, &timeErr):
		return app.Invalidf(loc, "expected an RFC 3339 time such as 2026-05-01T09:00:00Z")
	case typeErr != nil:
		return app.Invalidf(loc, "expected %s, got a JSON %s", jsonKind(typeErr.Type), typeErr.Value)
	}
	return app.Invalidf(loc, "this value could not be read")
}

// failingMember finds the top-level member of a JSON object that dst's
// type refuses on its own, or "" when none does (or raw is no object).
func failingMember(raw []byte, dst any) string {
	var members map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &members) != nil {
		return ""
	}
	t := reflect.TypeOf(dst)
	if t.Kind() != reflect.Pointer {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(members)) {
		one, _ := json.Marshal(map[string]json.RawMessage{name: members[name]})
		if json.Unmarshal(one, reflect.New(t.Elem()).Interface()) != nil {
			return name
		}
	}
	return ""
}

// refuseNUL refuses a body with U+0000 in any string, naming where. SQLite
// keeps such text, but much that reads it back (C strings, terminals,
// other databases) cuts it short; no title, body or name needs one. Only a
// body that spells the escape is walked.
func refuseNUL(raw []byte) error {
	if !bytes.Contains(raw, []byte(`\u0000`)) {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if loc, ok := nulAt(v, "body"); ok {
		return app.Invalidf(loc, "text may not contain U+0000 (\\u0000)")
	}
	return nil
}

// nulAt walks a decoded JSON value for a string (or object key) holding U+0000.
func nulAt(v any, loc string) (string, bool) {
	switch x := v.(type) {
	case string:
		return loc, strings.ContainsRune(x, 0)
	case []any:
		for _, e := range x {
			if l, ok := nulAt(e, loc); ok {
				return l, true
			}
		}
	case map[string]any:
		for k, e := range x {
			if strings.ContainsRune(k, 0) {
				return loc, true
			}
			if l, ok := nulAt(e, loc+"."+k); ok {
				return l, true
			}
		}
	}
	return "", false
}

// jsonKind is the JSON a value of Go type t is read from, in words.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16,
		reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	if t == reflect.TypeFor[time.Time]() {
		return "a string"
	}
	return "an object"
}

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}
