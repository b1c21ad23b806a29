package from

import (
	"html"
	"regexp"
	"strings"

	"tend/app"
)

var (
	htmlPara  = regexp.MustCompile(`(?i)</(p|div|h[1-6]|blockquote|pre|ul|ol)>`)
	htmlBreak = regexp.MustCompile(`(?i)<br\s*/?>|</li>`)
	htmlItem  = regexp.MustCompile(`(?i)<li[^>]*>`)
	htmlTag   = regexp.MustCompile(`<[^>]*>`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
)

// htmlText turns the HTML a rich-text editor stores (Vikunja's) into the
// plain text tend's Markdown reads: paragraphs and breaks as new lines,
// list items as "- ", other tags dropped, entities decoded. Text without
// tags is left as it is.
func htmlText(s string) string {
	if !strings.Contains(s, "<") || !htmlTag.MatchString(s) {
		return s
	}
	s = htmlItem.ReplaceAllString(s, "- ")
	s = htmlPara.ReplaceAllString(s, "\n\n")
	s = htmlBreak.ReplaceAllString(s, "\n")
	s = htmlTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	return strings.TrimSpace(blankRuns.ReplaceAllString(s, "\n\n"))
}

// refsAs writes each "#12" of a text the tool wrote as prefix#12
// (app.InertRefs), and the CRLF line ends of a web editor as LF.
func refsAs(text, prefix string) string {
	return app.InertRefs(strings.ReplaceAll(text, "\r\n", "\n"), prefix)
}

// firstAssignee is the first of an item's assignees, the one a tend task
// has, with each other one reported as unmapped at where.
func firstAssignee[U any](where string, assignees []U, name func(U) string) (string, []app.Unmapped) {
	if len(assignees) == 0 {
		return "", nil
	}
	var rest []app.Unmapped
	for _, a := range assignees[1:] {
		rest = append(rest, app.Unmapped{Where: where, What: name(a), Why: "a second assignee: a tend task has one"})
	}
	return name(assignees[0]), rest
}
