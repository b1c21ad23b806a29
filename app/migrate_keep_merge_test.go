package app

import (
	"fmt"
	"testing"
)

// TestFollows is the three-way rule of a re-import, field by field: the
// last import's value (base; none for a task imported before tend kept
// them), the file's and tend's.
func TestFollows(t *testing.T) {
	base := importedValues{"title": "A"}
	for _, tc := range []struct {
		name            string
		base            importedValues
		file, now       string
		apply, conflict bool
	}{
		{"nothing changed", base, "A", "A", false, false},
		{"changed in tend only", base, "A", "B", false, false},
		{"changed in the file only", base, "B", "A", true, false},
		{"changed alike on both sides", base, "B", "B", false, false},
		{"changed on both sides", base, "B", "C", false, true},
		{"no record, the same", nil, "A", "A", false, false},
		{"no record, different", nil, "A", "B", false, true},
		{"no record of this field", importedValues{"description": "x"}, "A", "B", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apply, conflict := follows(tc.base, "title", tc.file, tc.now)
			if apply != tc.apply || conflict != tc.conflict {
				t.Errorf("follows = %v, %v; want %v, %v", apply, conflict, tc.apply, tc.conflict)
			}
		})
	}
}

// TestMergeTags: a tag the file added since the last import comes, one it
// dropped goes, one added in tend stays, whatever the letters' case.
func TestMergeTags(t *testing.T) {
	for _, tc := range []struct {
		base, file, now []string
		want            string
	}{
		{[]string{"a"}, []string{"a"}, []string{"a", "mine"}, "[a mine]"},
		{[]string{"a"}, []string{"a", "b"}, []string{"a"}, "[a b]"},
		{[]string{"a", "b"}, []string{"a"}, []string{"a", "b", "mine"}, "[a mine]"},
		{[]string{"a", "b"}, []string{"a"}, []string{"a"}, "[a]"},
		{[]string{"Errands"}, []string{"errands", "home"}, []string{"ERRANDS"}, "[ERRANDS home]"},
		{nil, []string{"a"}, nil, "[a]"},
	} {
		if got := fmt.Sprint(mergeTags(tc.base, tc.file, tc.now)); got != tc.want {
			t.Errorf("mergeTags(%v, %v, %v) = %s, want %s", tc.base, tc.file, tc.now, got, tc.want)
		}
	}
}

// TestInertRefs: each "#12" that tend would read as a mention is written
// prefix#12; what tend does not read as one is left as it is.
func TestInertRefs(t *testing.T) {
	for _, tc := range []struct{ text, prefix, want string }{
		{"Clown Show #21 cleanup", "bd", "Clown Show bd#21 cleanup"},
		{"#1 first, then (#2)", "vikunja", "vikunja#1 first, then (vikunja#2)"},
		{"issue#4, &#5;, #0, #x, a/#6 and https://example.com/#9", "bd", "issue#4, &#5;, #0, #x, a/#6 and https://example.com/#9"},
		{"see #12", "acme/widgets-", "see acme/widgets#12"},
		{"see #12", "--", "see ref#12"},
		{"no refs", "", "no refs"},
	} {
		got := InertRefs(tc.text, tc.prefix)
		if got != tc.want {
			t.Errorf("InertRefs(%q, %q) = %q, want %q", tc.text, tc.prefix, got, tc.want)
		}
		if refs := mentionedRefs(got); len(refs) != 0 {
			t.Errorf("InertRefs(%q, %q) still mentions %v", tc.text, tc.prefix, refs)
		}
	}
}
