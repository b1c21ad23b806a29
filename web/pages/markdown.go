package pages

import (
	"bytes"
	"html/template"
	"strconv"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders descriptions, bodies and comments for the pages.
// goldmark's HTML renderer, without its Unsafe option, leaves raw HTML out
// and writes no javascript:, vbscript:, file: or data: link, so what a
// person or an agent wrote can never run in a reader's browser; the
// Content-Security-Policy of every page (script-src 'self') is the second
// line behind it.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(refParser{}, 999))),
)

// renderMarkdown is src as sanitised HTML; #42 links to item 42.
func renderMarkdown(src string) template.HTML {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(src), &b); err != nil {
		return template.HTML(template.HTMLEscapeString(src))
	}
	return template.HTML(b.String()) // goldmark escaped it: see markdown
}

// refParser reads #N, a mention of item N (the same rule as the line
// grammar and mentions: a '#' not after a word character, then digits not
// followed by one), as a link to the item's page. Code spans and blocks are
// not parsed inline, so #42 in code stays text.
type refParser struct{}

func (refParser) Trigger() []byte { return []byte{'#'} }

func (refParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if prev := block.PrecendingCharacter(); isWordRune(prev) {
		return nil
	}
	n := 1
	for n < len(line) && line[n] >= '0' && line[n] <= '9' {
		n++
	}
	if n == 1 || n > 19 || (n < len(line) && isWordRune(rune(line[n]))) {
		return nil
	}
	ref, err := strconv.ParseInt(string(line[1:n]), 10, 64)
	if err != nil || ref < 1 {
		return nil
	}
	block.Advance(n)
	link := ast.NewLink()
	link.Destination = []byte("/items/" + strconv.FormatInt(ref, 10))
	link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start, seg.Start+n)))
	return link
}

func isWordRune(r rune) bool {
	return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}
