package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestExportLinesRoundTrip: what the encoder writes the decoder reads back
// as it was, whatever the text holds.
func TestExportLinesRoundTrip(t *testing.T) {
	recs := []app.Record{
		{Kind: "task", Fields: []app.Field{{Name: "id", Value: "a"}, {Name: "ref", Value: int64(-7)}, {Name: "title", Value: "quotes \" and \\ backslashes, tabs\t, newlines\n, NUL \x00, 😀, \u2028"},
			{Name: "due_at", Value: nil}, {Name: "series_values", Value: app.JSONText("{\n  \"a\": [1, 2]\n}")}}},
		{Kind: "event", Fields: []app.Field{{Name: "changes", Value: app.JSONText(`{"title":"x"}`)}, {Name: "item_ref", Value: int64(9007199254740993)}}},
		{Kind: "empty"},
	}
	var b bytes.Buffer
	enc := NewExportEncoder(&b, nil)
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	if err := enc.Begin(app.ExportHeader{Format: 1, Schema: "0016_x", ExportedAt: at, Workspaces: []app.ExportedWorkspace{{ID: "w", Slug: "s"}}}); err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := enc.Record(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.End(int64(len(recs))); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != len(recs)+2 {
		t.Fatalf("%d lines, want %d:\n%s", n, len(recs)+2, b.String())
	}
	dec := NewExportDecoder(&b)
	h, err := dec.Header()
	if err != nil || h.Schema != "0016_x" || !h.ExportedAt.Equal(at) || h.Workspaces[0].Slug != "s" {
		t.Fatalf("header %+v, %v", h, err)
	}
	for i, want := range recs {
		got, err := dec.Next()
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]any{}
		for _, f := range got.Fields {
			byName[f.Name] = f.Value
		}
		for _, f := range want.Fields {
			v := f.Value
			if j, ok := v.(app.JSONText); ok {
				var c bytes.Buffer
				_ = json.Compact(&c, []byte(j))
				v = app.JSONText(c.String())
			}
			if s, ok := v.(string); ok {
				v = strings.ToValidUTF8(s, "\ufffd")
			}
			if !reflect.DeepEqual(byName[f.Name], v) {
				t.Errorf("record %d field %s: %#v, want %#v", i, f.Name, byName[f.Name], v)
			}
		}
		if got.Kind != want.Kind || len(got.Fields) != len(want.Fields) || got.Line != i+2 {
			t.Errorf("record %d: %+v, want %+v", i, got, want)
		}
	}
	if _, err := dec.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
}

// FuzzSplitObject: the decoder's own splitting of a line agrees with
// encoding/json on every line it accepts, and never panics.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{"kind":"task","ref":1,"title":"a \"b\"","x":null,"c":{"a":[1,"]"]}}`, `{}`, `{"a":1,}`, `{"a" : "\u00e9" }`,
		`{"a":tru}`, `{"a":1.5}`, `[1]`, `{"a":"x"} trailing`, `{"a":{"b":"}"}}`, `{"a":"\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, ok := splitObject(b)
		if !ok {
			return
		}
		got := map[string]any{}
		for _, fl := range fields {
			v, err := decodeValue(fl.raw)
			if err != nil {
				return
			}
			if j, ok := v.(app.JSONText); ok {
				var x any
				_ = json.Unmarshal([]byte(j), &x)
				v = x
			}
			if n, ok := v.(int64); ok {
				v = float64(n)
			}
			got[fl.name] = v
		}
		var want map[string]any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("split %q, which encoding/json refuses: %v", b, err)
		}
		for k, v := range got {
			if n, ok := v.(float64); ok {
				if w, ok := want[k].(float64); ok && float64(int64(w)) == w {
					want[k] = float64(int64(n))
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: split into %#v, encoding/json reads %#v", b, got, want)
		}
	})
}
