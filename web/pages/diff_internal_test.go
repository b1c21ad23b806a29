package pages

import (
	"strings"
	"testing"
)

// TestLineDiff: the lines both texts keep, those removed and those added,
// in order, with unchanged runs folded beyond two lines of context.
func TestLineDiff(t *testing.T) {
	t.Parallel()
	show := func(ls []diffLine) string {
		var b strings.Builder
		for _, l := range ls {
			if l.Op == "…" {
				b.WriteString("… " + strings.Repeat("x", l.Skipped) + "\n")
				continue
			}
			b.WriteString(l.Op + l.Text + "\n")
		}
		return b.String()
	}
	for _, c := range []struct{ from, to, want string }{
		{"a\nb\nc", "a\nb\nc\n", ""},
		{"", "new", "+new\n"},
		{"old", "", "-old\n"},
		{"a\nb\nc", "a\nB\nc", " a\n-b\n+B\n c\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8", "1\n2\n3\n4\nfour and a half\n5\n6\n7\n8", "… xx\n 3\n 4\n+four and a half\n 5\n 6\n… xx\n"},
		{"a\nb\nc\nd", "b\nc\nd\ne", "-a\n b\n c\n d\n+e\n"},
		{"x\r\ny", "x\ny\nz", " x\n y\n+z\n"},
		{"p\nq\nr", "r\nq\np", "-p\n-q\n r\n+q\n+p\n"},
	} {
		if got := show(lineDiff(c.from, c.to)); got != c.want {
			t.Errorf("lineDiff(%q, %q):\n%s\nwant\n%s", c.from, c.to, got, c.want)
		}
	}
	long := strings.Repeat("line\n", 2000)
	if got := lineDiff(long, long+"more\n"); len(got) != 4 || got[3].Text != "more" || got[0].Skipped != 1998 {
		t.Errorf("a long text with one line added: %v", got[:min(len(got), 5)])
	}
	a, b := strings.Repeat("a\n", 1200), strings.Repeat("b\n", 1200)
	if got := lineDiff(a, b); len(got) != 2400 || got[0].Op != "-" || got[2399].Op != "+" {
		t.Errorf("two long texts with nothing in common: %d lines", len(got))
	}
}
