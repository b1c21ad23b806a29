package wire

import (
	"net/url"
	"strings"
	"testing"
)

// TestRedactURL: no secret survives into a log line, however it was put
// in the URL; what is not secret stays readable.
func TestRedactURL(t *testing.T) {
	const (
		prefix = "tend_abcdefghij"
		tail   = "klmnopqrstuvwxyz234567abcdefghijklmnopqr" // 40 characters, as app/token.go makes them
		secret = prefix + "_" + tail
		shown  = prefix + "_…"
	)
	encodeAll := func(s string) string { // every byte percent-encoded
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[s[i]>>4])+string("0123456789abcdef"[s[i]&15])))
		}
		return b.String()
	}
	encodeN := func(s string, n int) string {
		for range n {
			s = url.QueryEscape(s)
		}
		return s
	}
	for _, c := range []struct {
		name, path, query, want string
	}{
		{"nothing secret", "/v1/tasks/42", "limit=5&order=due", "/v1/tasks/42?limit=5&order=due"},
		{"an id", "/v1/tasks/0193b6a2-7c1e-7d4e-9a3b-5f6e7d8c9b0a", "", "/v1/tasks/0193b6a2-7c1e-7d4e-9a3b-5f6e7d8c9b0a"},
		{"a public prefix", "/v1/tokens/" + prefix, "", "/v1/tokens/" + prefix},
		{"a secret as a segment", "/v1/tokens/" + secret, "", "/v1/tokens/" + shown},
		{"a secret mid-segment", "/v1/tasks/x" + secret + "y", "", "/v1/tasks/x" + shown},
		{"a secret's tail alone", "/v1/tasks/" + tail, "", "/v1/tasks/…"},
		{"an invite", "/join/" + secret, "", "/join/…"},
		{"an invite cut short", "/join/" + prefix + "_klmno", "", "/join/…"},
		{"an invite encoded", "/join/" + encodeAll(secret), "", "/join/…"},
		{"upper case", "/v1/tasks/" + strings.ToUpper(secret), "", "/v1/tasks/TEND_ABCDEFGHIJ_…"},
		{"percent-encoded in the path", "/v1/tasks/" + encodeAll(secret), "", "/v1/tasks/" + shown},
		{"a query value", "/v1/tasks", "q=" + secret, "/v1/tasks?q=" + shown},
		{"a query key", "/v1/tasks", secret + "=1", "/v1/tasks?" + shown + "=1"},
		{"a bare query key", "/v1/tasks", "x" + secret, "/v1/tasks?x" + shown},
		{"encoded in a query value", "/v1/tasks", "q=" + encodeAll(secret), "/v1/tasks?q=" + shown},
		{"encoded twice", "/v1/tasks", "q=" + encodeN(encodeAll(secret), 1), "/v1/tasks?q=" + shown},
		{"encoded past the decoding bound", "/v1/tasks", "q=" + encodeN(encodeAll(secret), 6), "/v1/tasks?q=…"},
		{"repeated", "/v1/tasks/" + secret + "/" + secret, "a=" + secret + "&b=" + secret + secret,
			"/v1/tasks/" + shown + "/" + shown + "?a=" + shown + "&b=" + shown + "_abcdefghij_…"},
		{"a sign-in link", "/signin", "link=short-secret", "/signin?link=…"},
		{"a credential parameter of any case", "/v1/me", "TOKEN=x&limit=2", "/v1/me?TOKEN=…&limit=2"},
		{"an empty credential parameter", "/v1/me", "token=", "/v1/me?token="},
		{"a calendar feed", "/v1/calendars/cal_abcdefghij/s3cr3t.ics", "", "/v1/calendars/cal_abcdefghij/….ics"},
		{"a calendar feed with a long secret", "/v1/calendars/cal_abcdefghij/" + tail + ".ics", "", "/v1/calendars/cal_abcdefghij/….ics"},
		{"plus and escapes decode", "/v1/tasks", "q=two+words%21", "/v1/tasks?q=two words!"},
		{"a broken escape stays", "/v1/tasks", "q=%zz", "/v1/tasks?q=%zz"},
		{"words of ordinary length", "/v1/tasks", "q=internationalization", "/v1/tasks?q=internationalization"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := RedactURL(c.path, c.query)
			if got != c.want {
				t.Errorf("redactURL(%q, %q)\n got %q\nwant %q", c.path, c.query, got, c.want)
			}
			if strings.Contains(strings.ToLower(got), tail[:20]) {
				t.Errorf("the secret survives: %q", got)
			}
		})
	}
}
