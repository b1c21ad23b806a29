package calfeed

import "testing"

// TestAppendText: a TEXT value escapes what RFC 5545 3.3.11 names and
// drops the control characters it does not allow; line ends become \n.
func TestAppendText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain words", "plain words"},
		{`a,b;c\d`, `a\,b\;c\\d`},
		{"one\ntwo\r\nthree\rfour", `one\ntwo\nthree\nfour`},
		{"bell\x07 and nul\x00 and del\x7f", "bell and nul and del"},
		{"tab\tstays", "tab\tstays"},
		{"✓ ünïcode, too", `✓ ünïcode\, too`},
		{"", ""},
	} {
		if got := string(appendText([]byte("X:"), c.in)); got != "X:"+c.want {
			t.Errorf("appendText(%q) = %q, want %q", c.in, got, "X:"+c.want)
		}
	}
}
