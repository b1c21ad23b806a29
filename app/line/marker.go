package line

import (
	"strconv"
	"strings"
	"unicode"

	"tend/app/when"
)

// Sigils are the first characters of the one-word markers.
var Sigils = map[byte]Kind{'#': KindTag, '+': KindProject, '!': KindPriority, '~': KindEstimate}

// TodoistPriorities are Todoist's priority words, read as importance the
// way tend imports Todoist's files: p1 (Todoist's most urgent, red) is
// importance 5, p2 is 4, p3 is 3, and p4, Todoist's "no priority", leaves
// importance unset (the word is still taken out of the title). Only the
// whole word counts, so "p2p" and "mp3" stay title words.
var TodoistPriorities = map[string]int{"p1": 5, "p2": 4, "p3": 3, "p4": 0}

// trailing is punctuation that may follow a tag or key without being part
// of it ("#urgent," "+home.").
const trailing = ".,;:!?)"

// marker reads a one-word marker at token i, as written, and records it.
func (r *reader) marker(i int) bool {
	w := r.text[r.toks[i].Start:r.toks[i].End]
	if imp, ok := TodoistPriorities[r.toks[i].Text]; ok {
		if r.prioritySet {
			return false
		}
		r.res.Importance, r.prioritySet = imp, true
		v := FormatPriority(imp, 0)
		if imp == 0 {
			v = "none"
		}
		r.span(KindPriority, i, 1, v)
		return true
	}
	if len(w) < 2 {
		return false
	}
	k, ok := Sigils[w[0]]
	if !ok {
		return false
	}
	body := w[1:]
	switch k {
	case KindTag:
		tag := strings.TrimRight(body, trailing)
		if !isTag(tag) || hasFold(r.res.Tags, tag) {
			return false
		}
		r.res.Tags = append(r.res.Tags, tag)
		r.span(k, i, 1, tag)
	case KindProject:
		key := strings.ToLower(strings.TrimRight(body, trailing))
		if r.res.Project != "" || !isKey(key) {
			return false
		}
		r.res.Project = key
		r.span(k, i, 1, key)
	case KindPriority:
		imp, urg, ok := priority(body)
		if !ok || r.prioritySet {
			return false
		}
		r.res.Importance, r.res.Urgency, r.prioritySet = imp, urg, true
		r.span(k, i, 1, FormatPriority(imp, urg))
	case KindEstimate:
		min, err := when.ParseDuration(body)
		if err != nil || r.res.EstimateMinutes != nil {
			return false
		}
		r.res.EstimateMinutes = &min
		r.span(k, i, 1, when.FormatDuration(min))
	}
	return true
}

// isTag is the service's rule for a tag name (1-64 letters, digits, '_',
// '.', '/', ':' or '-', a letter or digit first), except that digits alone
// are a mention of an item (#42), not a tag.
func isTag(s string) bool {
	if s == "" || len([]rune(s)) > 64 {
		return false
	}
	digits := true
	for i, c := range s {
		alnum := unicode.IsLetter(c) || unicode.IsDigit(c)
		if i == 0 && !alnum || !alnum && !strings.ContainsRune("_./:-", c) {
			return false
		}
		digits = digits && c >= '0' && c <= '9'
	}
	return !digits
}

// isKey is the service's rule for a project key: a letter first, then up
// to 31 letters, digits, '_' or '-'.
func isKey(s string) bool {
	if s == "" || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func hasFold(list []string, s string) bool {
	for _, t := range list {
		if strings.EqualFold(t, s) {
			return true
		}
	}
	return false
}

// priority reads "4/3", "4", "/3" or "4/": importance, urgency, 0 for unset.
func priority(s string) (int, int, bool) {
	is, us, _ := strings.Cut(s, "/")
	imp, ok1 := level(is)
	urg, ok2 := level(us)
	return imp, urg, ok1 && ok2 && imp+urg > 0
}

func level(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) != 1 || s[0] < '1' || s[0] > '5' {
		return 0, false
	}
	return int(s[0] - '0'), true
}

// FormatPriority writes importance and urgency as the line does: "4/3",
// "4", "/3".
func FormatPriority(imp, urg int) string {
	var b strings.Builder
	if imp > 0 {
		b.WriteString(strconv.Itoa(imp))
	}
	if urg > 0 {
		b.WriteString("/" + strconv.Itoa(urg))
	}
	return b.String()
}
