package app

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseOrder(t *testing.T) {
	cases := []struct {
		in   string
		want []OrderField
	}{
		{"", []OrderField{{Field: "ref"}}},
		{"   ", []OrderField{{Field: "ref"}}},
		{"ref", []OrderField{{Field: "ref"}}},
		{"-ref", []OrderField{{Field: "ref", Desc: true}}},
		{"-importance,due_at", []OrderField{{Field: "importance", Desc: true}, {Field: "due_at"}}},
		{" -importance , due_at ", []OrderField{{Field: "importance", Desc: true}, {Field: "due_at"}}},
		{"status,-priority_score,title", []OrderField{{Field: "status"}, {Field: "priority_score", Desc: true}, {Field: "title"}}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseOrder(c.in)
			if err != nil {
				t.Fatalf("parseOrder(%q): %v", c.in, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("parseOrder(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
	for _, f := range TaskOrderFields {
		got, err := parseOrder("-" + f)
		if err != nil || len(got) != 1 || got[0] != (OrderField{Field: f, Desc: true}) {
			t.Errorf("parseOrder(-%s) = %+v, %v", f, got, err)
		}
	}
}

func TestParseOrderRefuses(t *testing.T) {
	for _, in := range []string{"nope", "REF", "ref,ref", "-ref,ref", "ref,", ",", ",ref", "-", "--ref", "- ref", "+ref",
		"ref;title", "importance desc", "description", "id"} {
		t.Run(in, func(t *testing.T) {
			got, err := parseOrder(in)
			if err == nil {
				t.Fatalf("parseOrder(%q) = %+v, want a refusal", in, got)
			}
			e := AsError(err)
			if e.Code != CodeValidation {
				t.Fatalf("code %q, want %q", e.Code, CodeValidation)
			}
			if len(e.Fields) == 0 || !reflect.DeepEqual(e.Fields[0].Loc, []string{"query", "order"}) {
				t.Fatalf("fields %+v, want loc [query order]", e.Fields)
			}
		})
	}
}

// joinOrder writes order fields back in the form parseOrder reads.
func joinOrder(fs []OrderField) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Field
		if f.Desc {
			parts[i] = "-" + f.Field
		}
	}
	return strings.Join(parts, ",")
}

func FuzzParseOrder(f *testing.F) {
	for _, s := range []string{"", "ref", "-importance,due_at", " title , -status ", "ref,ref", "-", ",,", "--ref", "nope"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseOrder(s)
		if err != nil {
			if code := CodeOf(err); code != CodeValidation {
				t.Fatalf("parseOrder(%q): code %q, want %q", s, code, CodeValidation)
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("parseOrder(%q) accepted no fields", s)
		}
		seen := map[string]bool{}
		for _, o := range got {
			if !has(TaskOrderFields, o.Field) || seen[o.Field] {
				t.Fatalf("parseOrder(%q) = %+v: unknown or repeated field", s, got)
			}
			seen[o.Field] = true
		}
		again, err := parseOrder(joinOrder(got))
		if err != nil {
			t.Fatalf("round trip of %q via %q: %v", s, joinOrder(got), err)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip of %q via %q = %+v, want %+v", s, joinOrder(got), again, got)
		}
	})
}
