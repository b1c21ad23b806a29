package app

import (
	"slices"
	"testing"
)

func TestMentionedRefs(t *testing.T) {
	cases := []struct {
		in   string
		want []int64
	}{
		{"see #42", []int64{42}},
		{"#1 and #2, then #1 again", []int64{1, 2}},
		{"(#7) [#8] #9.", []int64{7, 8, 9}},
		{"issue#42 &#42; #42a #0 ##5 a/#6", nil},
		{"line one\n#12 starts a line", []int64{12}},
		{"", nil},
		{"#99999999999999999999", nil},
	}
	for _, c := range cases {
		if got := mentionedRefs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("mentionedRefs(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func FuzzMentionedRefs(f *testing.F) {
	for _, s := range []string{"see #42", "#1 #2", "&#42;", "#0", "x#9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range mentionedRefs(s) {
			if r < 1 {
				t.Fatalf("mentionedRefs(%q) gave %d", s, r)
			}
		}
	})
}
