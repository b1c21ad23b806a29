package wire

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"tend/app"
)

// A decoding error is located in the document it was made for, a body or
// a tool's arguments, and says what JSON the field takes, where it is
// made: nothing renames it afterwards.
func TestDecodeErrorNamesItsDocument(t *testing.T) {
	type member struct {
		Passed bool `json:"passed"`
	}
	type target struct {
		N      int                `json:"n"`
		Tags   []string           `json:"tags"`
		At     time.Time          `json:"at"`
		Name   string             `json:"name"`
		Member member             `json:"member"`
		Title  Patch[string]      `json:"title"`
		Extra  map[string]float64 `json:"extra"`
	}
	toolArguments := Input{Loc: "arguments", Noun: "the arguments"}
	for _, c := range []struct {
		raw string
		doc Input
		loc []string
		msg string
	}{
		{`{"n":"x"}`, RequestBody, []string{"body", "n"}, "expected a number, got a JSON string"},
		{`{"tags":{}}`, toolArguments, []string{"arguments", "tags"}, "expected an array, got a JSON object"},
		{`{"name":1}`, toolArguments, []string{"arguments", "name"}, "expected a string, got a JSON number"},
		{`{"member":[]}`, RequestBody, []string{"body", "member"}, "expected an object, got a JSON array"},
		{`{"member":{"passed":"yes"}}`, toolArguments, []string{"arguments", "member", "passed"}, "expected true or false, got a JSON string"},
		{`{"at":"noon"}`, RequestBody, []string{"body", "at"}, "expected an RFC 3339 time such as 2026-05-01T09:00:00Z"},
		{`{"extra":{"a":"b"}}`, toolArguments, []string{"arguments", "extra"}, "expected a number, got a JSON string"},
		{`{"n":1,}`, RequestBody, []string{"body"}, "the body is not valid JSON (at byte 8)"},
		{`{"n":1,}`, toolArguments, []string{"arguments"}, "the arguments is not valid JSON (at byte 8)"},
		{`{"n":`, toolArguments, []string{"arguments"}, "the arguments ends in the middle of a JSON value"},
		{`{"nope":1}`, toolArguments, []string{"arguments", "nope"}, `unknown field "nope"`},
	} {
		t.Run(c.raw+" "+c.doc.Loc, func(t *testing.T) {
			var dst target
			dec := json.NewDecoder(bytes.NewReader([]byte(c.raw)))
			dec.DisallowUnknownFields()
			err := dec.Decode(&dst)
			if err == nil {
				t.Fatal("decoded")
			}
			e := app.AsError(DecodeError(err, []byte(c.raw), &dst, c.doc))
			if e.Code != app.CodeValidation || len(e.Fields) != 1 {
				t.Fatalf("got %+v", e)
			}
			if f := e.Fields[0]; !slices.Equal(f.Loc, c.loc) || f.Msg != c.msg {
				t.Fatalf("got %v %q, want %v %q", f.Loc, f.Msg, c.loc, c.msg)
			}
		})
	}
}
