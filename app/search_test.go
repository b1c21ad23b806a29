package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tend/internal/golden"
)

func TestParseSearch(t *testing.T) {
	cases := []struct {
		q    string
		want Search
	}{
		{"", Search{}},
		{"login bug", Search{Match: `"login" AND ("bug" OR "bug" *)`}},
		{"pass", Search{Match: `("pass" OR "pass" *)`}},
		{"pass ", Search{Match: `("pass" OR "pass" *)`}},
		{"a", Search{Match: `"a"`}},
		{`"pass"`, Search{Match: `"pass"`}},
		{"pass* rep", Search{Match: `"pass" * AND ("rep" OR "rep" *)`}},
		{"pass -rep", Search{Match: `("pass" OR "pass" *)`, Exclude: `"rep"`}},
		{"pass #urgent", Search{Match: `("pass" OR "pass" *)`, Terms: []SearchTerm{{"tag", "urgent"}}}},
		{`pass "flaky test"`, Search{Match: `("pass" OR "pass" *) AND "flaky test"`}},
		{`"flaky test" ci`, Search{Match: `"flaky test" AND ("ci" OR "ci" *)`}},
		{"-wontfix deploy", Search{Match: `("deploy" OR "deploy" *)`, Exclude: `"wontfix"`}},
		{`-"old plan" -draft`, Search{Exclude: `"old plan" OR "draft"`}},
		{"auth*", Search{Match: `"auth" *`}},
		{"type:bug crash", Search{Match: `("crash" OR "crash" *)`, Terms: []SearchTerm{{"type", "bug"}}}},
		{"#urgent +web assignee:me", Search{Terms: []SearchTerm{{"tag", "urgent"}, {"project", "web"}, {"assignee", "me"}}}},
		{"Status:done category:todo", Search{Terms: []SearchTerm{{"status", "done"}, {"category", "todo"}}}},
		{"http://example.com", Search{Match: `("http://example.com" OR "http://example.com" *)`}},
		{`say "hi`, Search{Match: `("say" OR "say" *) AND "hi"`}},
		{`a"b`, Search{Match: `"a""b"`}},
		{"NOT AND OR NEAR", Search{Match: `"NOT" AND "AND" AND "OR" AND ("NEAR" OR "NEAR" *)`}},
		{"-- ... # + :", Search{}},
		{"- word", Search{Match: `("word" OR "word" *)`}},
		{"-type:bug", Search{Exclude: `"type:bug"`}},
		{"type: x", Search{Match: `"type:" AND "x"`}},
		{"type: xy", Search{Match: `"type:" AND ("xy" OR "xy" *)`}},
		{"über-fast a-b c++", Search{Match: `"über-fast" AND "a-b" AND "c++"`}},
	}
	for _, c := range cases {
		got := ParseSearch(c.q)
		// Words are Match's parts, which the store searches one by one
		// across a large document's chunks.
		if strings.Join(got.Words, " AND ") != got.Match {
			t.Errorf("ParseSearch(%q): words %q are not the parts of %q", c.q, got.Words, got.Match)
		}
		if len(got.Ranks) != len(got.Words) {
			t.Errorf("ParseSearch(%q): %d ranked words for %d words", c.q, len(got.Ranks), len(got.Words))
		}
		got.Words, got.Ranks = nil, nil
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
	golden.Check(t, filepath.Join("testdata", "search.golden"), []byte(b.String()))
}

func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{"login bug", "pass", "a-b c(d", `"a b" -c`, "type:bug #x +p", "auth*", `"`, "-", "a\"b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		s := ParseSearch(q)
		for _, expr := range []string{s.Match, s.Exclude} {
			if strings.Count(expr, `"`)%2 != 0 {
				t.Fatalf("ParseSearch(%q) gave unbalanced quotes: %s", q, expr)
			}
		}
		if strings.Join(s.Words, " AND ") != s.Match {
			t.Fatalf("ParseSearch(%q): words %q are not the parts of %q", q, s.Words, s.Match)
		}
		if !balanced(s.Match) {
			t.Fatalf("ParseSearch(%q) gave unbalanced parentheses: %s", q, s.Match)
		}
		for _, term := range s.Terms {
			if term.Value == "" || !has(SearchTermKeys, term.Key) {
				t.Fatalf("ParseSearch(%q) gave term %+v", q, term)
			}
		}
	})
}

// balanced reports whether the parentheses of an FTS5 expression outside
// its strings close in order.
func balanced(expr string) bool {
	depth, quoted := 0, false
	for _, r := range expr {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
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
