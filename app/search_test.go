package app

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

func TestParseSearch(t *testing.T) {
	cases := []struct {
		q    string
		want Search
	}{
		{"", Search{}},
		{"login bug", Search{Match: `"login" AND "bug"`}},
		{`"flaky test" ci`, Search{Match: `"flaky test" AND "ci"`}},
		{"-wontfix deploy", Search{Match: `"deploy"`, Exclude: `"wontfix"`}},
		{`-"old plan" -draft`, Search{Exclude: `"old plan" OR "draft"`}},
		{"auth*", Search{Match: `"auth" *`}},
		{"type:bug crash", Search{Match: `"crash"`, Terms: []SearchTerm{{"type", "bug"}}}},
		{"#urgent +web assignee:me", Search{Terms: []SearchTerm{{"tag", "urgent"}, {"project", "web"}, {"assignee", "me"}}}},
		{"Status:done category:todo", Search{Terms: []SearchTerm{{"status", "done"}, {"category", "todo"}}}},
		{"http://example.com", Search{Match: `"http://example.com"`}},
		{`say "hi`, Search{Match: `"say" AND "hi"`}},
		{`a"b`, Search{Match: `"a""b"`}},
		{"NOT AND OR NEAR", Search{Match: `"NOT" AND "AND" AND "OR" AND "NEAR"`}},
		{"-- ... # + :", Search{}},
		{"- word", Search{Match: `"word"`}},
		{"-type:bug", Search{Exclude: `"type:bug"`}},
		{"type: x", Search{Match: `"type:" AND "x"`}},
	}
	for _, c := range cases {
		got := ParseSearch(c.q)
		// Words are Match's parts, which the store searches one by one
		// across a large document's chunks.
		if strings.Join(got.Words, " AND ") != got.Match {
			t.Errorf("ParseSearch(%q): words %q are not the parts of %q", c.q, got.Words, got.Match)
		}
		got.Words = nil
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSearch(%q)\n got %#v\nwant %#v", c.q, got, c.want)
		}
	}
}

// TestParseSearchGolden pins how a set of written searches is read, so a
// change to the grammar shows up as a diff of testdata/search.golden.
func TestParseSearchGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "search.input"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, q := range strings.Split(strings.TrimRight(string(in), "\n"), "\n") {
		out, err := json.Marshal(ParseSearch(q))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(q + "\n\t" + string(out) + "\n")
	}
	matchGolden(t, "search.golden", b.String())
}

func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{"login bug", `"a b" -c`, "type:bug #x +p", "auth*", `"`, "-", "a\"b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		s := ParseSearch(q)
		for _, expr := range []string{s.Match, s.Exclude} {
			if strings.Count(expr, `"`)%2 != 0 {
				t.Fatalf("ParseSearch(%q) gave unbalanced quotes: %s", q, expr)
			}
		}
		for _, term := range s.Terms {
			if term.Value == "" || !has(SearchTermKeys, term.Key) {
				t.Fatalf("ParseSearch(%q) gave term %+v", q, term)
			}
		}
	})
}

func TestSearchTermValues(t *testing.T) {
	s := ParseSearch("#home crash +web #Urgent")
	if got := s.Values("tag"); !reflect.DeepEqual(got, []string{"home", "Urgent"}) {
		t.Errorf("tags %q, want home and Urgent in order", got)
	}
	if got := s.Values("assignee"); got != nil {
		t.Errorf("assignees %q, want none", got)
	}
	for q, want := range map[string]bool{"": true, "-- ... # + :": true, "crash": false, "-wontfix": false, "#home": false} {
		if got := ParseSearch(q).Empty(); got != want {
			t.Errorf("ParseSearch(%q).Empty() = %v, want %v", q, got, want)
		}
	}
}
