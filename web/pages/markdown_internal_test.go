package pages

import (
	"regexp"
	"strings"
	"testing"
)

// TestMarkdown: mentions become links except in code and inside words,
// and nothing a writer sends can run in the reader's browser.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"see #42", `<p>see <a href="/items/42">#42</a></p>`},
		{"(#7) and #8.", `<p>(<a href="/items/7">#7</a>) and <a href="/items/8">#8</a>.</p>`},
		{"a#42 #42b #0 # 42", `<p>a#42 #42b #0 # 42</p>`},
		{"`#42` in code", `<p><code>#42</code> in code</p>`},
		{"```\n#42\n```", "<pre><code>#42\n</code></pre>"},
		{"**bold** _it_", `<p><strong>bold</strong> <em>it</em></p>`},
		{"[site](https://example.com/#42)", `<p><a href="https://example.com/#42">site</a></p>`},
		{"<script>alert(1)</script>", `<!-- raw HTML omitted -->`},
		{"<img src=x onerror=alert(1)>", `<!-- raw HTML omitted -->`},
		{"[x](javascript:alert(1))", `<p><a href="">x</a></p>`},
		{"[x](JaVaScRiPt:alert(1))", `<p><a href="">x</a></p>`},
		{"![x](data:text/html;base64,PHNjcmlwdD4=)", `<p><img src="" alt="x"></p>`},
		{"# Title", `<h1>Title</h1>`},
		{"| a | b |\n|---|---|\n| 1 | 2 |", "<table>"},
	} {
		got := strings.TrimSpace(string(renderMarkdown(c.in)))
		if !strings.Contains(got, c.want) {
			t.Errorf("%q renders %q, want it to hold %q", c.in, got, c.want)
		}
	}
}

// unsafeHTML finds what could run: a script-bearing element, an event
// attribute inside a tag (text is escaped, so a '<' here opens a real tag),
// a script URL in a link or image.
var unsafeHTML = regexp.MustCompile(`(?i)<(script|iframe|object|embed|style)|<[^>]*\son[a-z]+\s*=|(href|src)\s*=\s*"\s*(javascript|vbscript|data:text)`)

// FuzzMarkdown: whatever the text, the HTML holds no script, no event
// attribute and no script URL.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"see #42", "<script>x</script>", "[a](javascript:x)", "<a href=\"javascript:x\">a</a>",
		"`#1` #2", "![i](data:text/html,x)", "<div onclick=\"x\">"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := string(renderMarkdown(s)); unsafeHTML.MatchString(out) {
			t.Fatalf("%q renders unsafe HTML %q", s, out)
		}
	})
}
