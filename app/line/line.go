package line

import (
	"strings"
	"time"

	"tend/app/recur"
	"tend/app/when"
)

// Result is what a captured line says. Zero values are unset: Importance
// and Urgency 0, Estimate nil, Due zero, Repeat zero.
type Result struct {
	Title           string
	Tags            []string
	Project         string
	Importance      int
	Urgency         int
	EstimateMinutes *int
	Due             time.Time // in the reader's zone; midnight when DueAllDay
	DueAllDay       bool
	Repeat          recur.Rule
	Reminders       []Remind
	Spans           []Span // what was understood, in the order written
}

// Span is one marker understood in the line: the bytes it took and its
// value in canonical form (a date as when.Moment.String, a repeat as its
// description, a duration as when.FormatDuration, importance as "4/3").
type Span struct {
	Kind       Kind
	Start, End int // byte offsets in the line
	Text       string
	Value      string
}

// Kind names what a span is.
type Kind string

// The kinds of span.
const (
	KindDate     Kind = "date"
	KindRepeat   Kind = "repeat"
	KindPriority Kind = "priority"
	KindEstimate Kind = "estimate"
	KindTag      Kind = "tag"
	KindProject  Kind = "project"
	KindRemind   Kind = "remind"
)

// SyntaxError is a line that cannot make a task: the time vocabulary's
// refusal (when.SyntaxError), counting its offset into "the line".
type SyntaxError = when.SyntaxError

// lineError is the refusal of a whole line.
func lineError(text, msg string) error {
	return &SyntaxError{Input: text, Msg: msg, Of: "the line"}
}

// reader is one reading of a line.
type reader struct {
	text    string
	toks    []when.Token
	quoted  []bool // the token lies (partly) inside double quotes
	barrier []bool // a phrase stops before it: quoted or escaped
	used    []bool // the token was understood as a marker
	now     time.Time
	loc     *time.Location
	res     Result
	due     *when.Moment
	// prioritySet is a priority marker read, even one that sets nothing
	// (Todoist's p4), so that a later one stays in the title.
	prioritySet bool
	dueSpan     int // index of the date's span, to widen it when a time joins
	repSpan     int // index of the repeat's span, whose value settle may change
	clocks      []remindClock
}

// Parse reads a captured line at the moment now, in the reader's zone.
func Parse(text string, now time.Time, loc *time.Location) (Result, error) {
	r := &reader{text: text, toks: when.Tokenize(text), now: now.In(loc), loc: loc}
	r.quoted = quotedTokens(text, r.toks)
	r.barrier = make([]bool, len(r.toks))
	for i, t := range r.toks {
		r.barrier[i] = r.quoted[i] || strings.HasPrefix(t.Text, `\`)
	}
	r.used = make([]bool, len(r.toks))
	for i := 0; i < len(r.toks); {
		i += r.read(i)
	}
	r.res.Title = r.title()
	if r.res.Title == "" {
		return Result{}, lineError(text, "the line has no title words")
	}
	if err := r.settle(); err != nil {
		return Result{}, err
	}
	r.settleReminders()
	return r.res, nil
}

// limit is how far a phrase starting at i may read: up to the next quoted
// or escaped token.
func (r *reader) limit(i int) []when.Token {
	for k := i; k < len(r.toks); k++ {
		if r.barrier[k] {
			return r.toks[:k]
		}
	}
	return r.toks
}

// read tries every marker at token i and returns how many tokens it took
// (1 when it kept the token for the title).
func (r *reader) read(i int) int {
	if r.barrier[i] {
		return 1
	}
	if r.marker(i) {
		return 1
	}
	toks := r.limit(i)
	if n := r.remind(toks, i); n > 0 {
		return n
	}
	if rule, n := r.repeat(toks, i); n > 0 {
		if r.res.Repeat.IsZero() {
			r.res.Repeat, r.repSpan = rule, len(r.res.Spans)
			r.span(KindRepeat, i, n, rule.Description())
		}
		return n // a second repeat stays in the title, whole
	}
	if r.due == nil {
		if m, n := when.MatchDate(toks, i, r.now, r.loc); n > 0 {
			r.due, r.dueSpan = &m, len(r.res.Spans)
			r.span(KindDate, i, n, m.String())
			return n
		}
	} else if r.due.AllDay {
		if c, n := when.MatchClock(toks, i, false); n > 0 {
			y, mo, d := r.due.Time.Date()
			r.due = &when.Moment{Time: time.Date(y, mo, d, c.Hour, c.Minute, 0, 0, r.loc)}
			r.span(KindDate, i, n, r.due.String())
			r.res.Spans[r.dueSpan].Value = r.due.String()
			return n
		}
	}
	return 1
}

func (r *reader) use(i, n int) {
	for k := i; k < i+n; k++ {
		r.used[k] = true
	}
}

func (r *reader) span(k Kind, i, n int, value string) {
	r.use(i, n)
	s, e := r.toks[i].Start, r.toks[i+n-1].End
	r.res.Spans = append(r.res.Spans, Span{Kind: k, Start: s, End: e, Text: r.text[s:e], Value: value})
}

// repeat reads a repeat phrase at toks[i], except a lone adverb before a
// word of the title, which describes that word: "Weekly review", "send
// the monthly report" (while "Backup daily" and "Pay rent monthly #home"
// repeat).
func (r *reader) repeat(toks []when.Token, i int) (recur.Rule, int) {
	rule, n := recur.Match(toks, i, r.now, r.loc)
	if n != 1 || i+1 >= len(toks) {
		return rule, n
	}
	w := toks[i]
	// "weekly," ends a clause: the comma keeps it a repeat.
	if _, adverb := recur.Adverbs[w.Text]; adverb && w.End-w.Start == len(w.Text) && !r.opens(i+1) {
		return recur.Rule{}, 0
	}
	return rule, n
}

// settle anchors a repeat on the date phrase and sets the due. A date
// with a time gives a repeat without one its time.
func (r *reader) settle() error {
	if !r.res.Repeat.IsZero() {
		if r.due != nil { // recur.Match anchored it on now
			rule, err := r.res.Repeat.Restart(r.due.Time)
			if !r.due.AllDay && r.res.Repeat.AllDay() {
				h, m, _ := r.due.Time.Clock()
				rule, err = r.res.Repeat.At(when.Clock{Hour: h, Minute: m}, r.due.Time)
			}
			if err != nil {
				return lineError(r.text, err.Error())
			}
			r.res.Repeat = rule
			r.res.Spans[r.repSpan].Value = rule.Description()
		}
		r.res.Due, r.res.DueAllDay = r.res.Repeat.Anchor(), r.res.Repeat.AllDay()
		return nil
	}
	if r.due != nil {
		r.res.Due, r.res.DueAllDay = r.due.Time, r.due.AllDay
	}
	return nil
}

// title joins the tokens left, keeping the text between neighbours as
// written and putting one space where a marker was taken out.
func (r *reader) title() string {
	var b strings.Builder
	prev := -1
	for i, t := range r.toks {
		if r.used[i] {
			continue
		}
		if prev >= 0 {
			if prev == i-1 {
				b.WriteString(r.text[r.toks[prev].End:t.Start])
			} else {
				b.WriteByte(' ')
			}
		}
		w := r.text[t.Start:t.End]
		if !r.quoted[i] {
			w = strings.TrimPrefix(w, `\`)
		}
		b.WriteString(w)
		prev = i
	}
	return strings.TrimSpace(b.String())
}

// quotedTokens marks the tokens inside a pair of double quotes ("…" or
// “…”). A quote without its partner is an ordinary character.
func quotedTokens(text string, toks []when.Token) []bool {
	out := make([]bool, len(toks))
	var spans [][2]int
	open := -1
	for i, c := range text {
		switch {
		case open < 0 && (c == '"' || c == '“'):
			open = i
		case open >= 0 && (c == '"' || c == '”'):
			spans = append(spans, [2]int{open, i})
			open = -1
		}
	}
	k := 0
	for i, t := range toks {
		for k < len(spans) && spans[k][1] < t.Start {
			k++
		}
		out[i] = k < len(spans) && spans[k][0] < t.End
	}
	return out
}
