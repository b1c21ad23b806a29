package web

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"tend/app"
)

// decodeJSON reads exactly one JSON value into dst, refusing unknown fields,
// trailing data and bodies over the limit. An empty body is refused unless
// optional is set, in which case dst is left as it is.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, dst any, optional bool) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return app.Errorf(app.CodeUnsupportedMediaType, "send the body as application/json")
		}
	}
	body := http.MaxBytesReader(w, r.Body, int64(s.app.Limits().MaxBodyBytes))
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if errors.Is(err, io.EOF) {
		if optional {
			return nil
		}
		return app.Invalidf("body", "a JSON object is required")
	}
	if err != nil {
		return decodeError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return app.Invalidf("body", "the body must hold exactly one JSON value")
	}
	return nil
}

// decodeError says where a body went wrong, as a 422 naming the field.
func decodeError(err error) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &tooLarge):
		return app.Errorf(app.CodeTooLarge, "the body is over %d bytes", tooLarge.Limit)
	case errors.As(err, &typeErr):
		loc := "body"
		if typeErr.Field != "" {
			loc += "." + typeErr.Field
		}
		return app.Invalidf(loc, "expected %s, got a JSON %s", jsonKind(typeErr.Type.String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return app.Invalidf("body", "the body is not valid JSON (at byte %d)", syntaxErr.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json reports unknown fields only as text; the name is quoted at the end.
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return app.Invalidf("body."+name, "unknown field %q", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return app.Invalidf("body", "the body ends in the middle of a JSON value")
	}
	return app.Invalidf("body", "the body could not be read as JSON")
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map") || strings.HasPrefix(goType, "app.") || strings.HasPrefix(goType, "web."):
		return "an object"
	case goType == "string" || goType == "time.Time":
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return goType
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}
