package line

import (
	"slices"
	"strings"
	"time"

	"tend/app/recur"
	"tend/app/when"
)

// Format writes the result as a canonical line that Parse, at the same
// moment and zone, reads back to an equal Result: the title (every word
// that would be read as a marker escaped with a backslash), then the
// markers with absolute dates.
func (r Result) Format(now time.Time, loc *time.Location) string {
	var parts []string
	if r.Importance+r.Urgency > 0 {
		parts = append(parts, "!"+FormatPriority(r.Importance, r.Urgency))
	}
	if r.EstimateMinutes != nil {
		parts = append(parts, "~"+when.FormatDuration(*r.EstimateMinutes))
	}
	for _, t := range r.Tags {
		parts = append(parts, "#"+t)
	}
	if r.Project != "" {
		parts = append(parts, "+"+r.Project)
	}
	if !r.Due.IsZero() {
		parts = append(parts, when.Moment{Time: r.Due.In(loc), AllDay: r.DueAllDay}.String())
	}
	if !r.Repeat.IsZero() {
		parts = append(parts, r.Repeat.Description())
	}
	markers := strings.Join(parts, " ")
	return strings.TrimSuffix(escapeTitle(r.Title, markers, now.In(loc), loc)+" "+markers, " ")
}

// Equal reports whether two results say the same, spans aside.
func (r Result) Equal(o Result) bool {
	return r.Title == o.Title && slices.Equal(r.Tags, o.Tags) && r.Project == o.Project &&
		r.Importance == o.Importance && r.Urgency == o.Urgency &&
		(r.EstimateMinutes == nil) == (o.EstimateMinutes == nil) &&
		(r.EstimateMinutes == nil || *r.EstimateMinutes == *o.EstimateMinutes) &&
		r.Due.Equal(o.Due) && r.DueAllDay == o.DueAllDay && r.Repeat.Equal(o.Repeat)
}

// escapeTitle puts a backslash before each title word that would start a
// marker, read with the markers that follow it (a title ending in "on"
// would join a date after it), and before one that starts with a
// backslash. An escaped word ends the phrases before it, which can turn a
// phrase that failed into one that reads, so it runs until nothing changes.
func escapeTitle(title, markers string, now time.Time, loc *time.Location) string {
	text := title + " " + markers
	r := &reader{text: text, toks: when.Tokenize(text), now: now, loc: loc}
	r.quoted = quotedTokens(text, r.toks)
	r.barrier = make([]bool, len(r.toks))
	r.used = make([]bool, len(r.toks))
	esc := make([]bool, len(r.toks))
	for i, t := range r.toks {
		esc[i] = !r.quoted[i] && strings.HasPrefix(t.Text, `\`)
		r.barrier[i] = r.quoted[i] || esc[i]
	}
	for changed := true; changed; {
		changed = false
		for i, t := range r.toks {
			if t.Start < len(title) && !r.barrier[i] && r.starts(i) {
				esc[i], r.barrier[i], changed = true, true, true
			}
		}
	}
	var b strings.Builder
	last := 0
	for i, t := range r.toks {
		if esc[i] && t.Start < len(title) {
			b.WriteString(title[last:t.Start] + `\`)
			last = t.Start
		}
	}
	b.WriteString(title[last:])
	return b.String()
}

// starts reports whether token i would not stay in a title as written.
func (r *reader) starts(i int) bool {
	return r.could(i, r.repeat)
}

// opens reports whether a marker, repeat, date or time of day starts at
// token i, the token read alone.
func (r *reader) opens(i int) bool {
	return i < len(r.toks) && !r.barrier[i] && r.could(i, func(toks []when.Token, i int) (recur.Rule, int) {
		return recur.Match(toks, i, r.now, r.loc)
	})
}

// could reports whether token i would be read as something, trying a
// repeat with repeat; it changes nothing in r.
func (r *reader) could(i int, repeat func([]when.Token, int) (recur.Rule, int)) bool {
	fresh := *r
	fresh.res = Result{}
	fresh.used = slices.Clone(r.used)
	if fresh.marker(i) {
		return true
	}
	toks := r.limit(i)
	if _, n := repeat(toks, i); n > 0 {
		return true
	}
	if _, n := when.MatchDate(toks, i, r.now, r.loc); n > 0 {
		return true
	}
	_, n := when.MatchClock(toks, i, false)
	return n > 0
}
