package recur

import (
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"tend/app/when"
)

// Parse reads s as a repeat: a phrase ("every other friday at 9am"), a
// description written by Description, or RRULE text (see parseRFC). start
// is where the repeat begins (the moment of the request, or the date a
// captured line gives) and loc the zone whose wall clock it keeps.
func Parse(s string, start time.Time, loc *time.Location) (Rule, error) {
	if looksRFC(s) {
		return parseRFC(s, start, loc)
	}
	toks := when.Tokenize(s)
	if len(toks) == 0 {
		return Rule{}, when.SyntaxErrorf(s, 0, "a repeat is empty")
	}
	r, n, err := match(toks, 0, start, loc)
	switch {
	case err != nil:
		return Rule{}, when.SyntaxErrorf(s, toks[0].Start, "%s", err)
	case n == 0:
		return Rule{}, when.SyntaxErrorf(s, toks[0].Start, "%q does not start a repeat (try 'every day', 'every other friday', 'monthly on the 15th')", toks[0].Text)
	case n < len(toks):
		return Rule{}, when.SyntaxErrorf(s, toks[n].Start, "%q does not belong to the repeat", toks[n].Text)
	}
	return r, nil
}

// Match reads a repeat phrase at toks[i], as a captured line does. It
// returns how many tokens it read, 0 when no repeat starts at i (or the
// one that does can never happen).
func Match(toks []when.Token, i int, start time.Time, loc *time.Location) (Rule, int) {
	r, n, err := match(toks, i, start, loc)
	if err != nil {
		return Rule{}, 0
	}
	return r, n
}

// Adverbs are the one-word repeats and what they mean.
var Adverbs = map[string]struct {
	Freq     rrule.Frequency
	Interval int
}{"daily": {rrule.DAILY, 1}, "weekly": {rrule.WEEKLY, 1}, "fortnightly": {rrule.WEEKLY, 2}, "monthly": {rrule.MONTHLY, 1},
	"quarterly": {rrule.MONTHLY, 3}, "yearly": {rrule.YEARLY, 1}, "annually": {rrule.YEARLY, 1}}

// PeriodWords name a period after "every" and their rule.
var PeriodWords = map[string]struct {
	Freq     rrule.Frequency
	Interval int
}{"day": {rrule.DAILY, 1}, "week": {rrule.WEEKLY, 1}, "fortnight": {rrule.WEEKLY, 2}, "month": {rrule.MONTHLY, 1},
	"quarter": {rrule.MONTHLY, 3}, "year": {rrule.YEARLY, 1}}

// DoneWords end "3 days after done".
var DoneWords = []string{"done", "completion", "completed", "finished"}

// UntilWords end a repeat on a date ("until dec 31", "ending 2027-06-30");
// StartWords begin it on one ("starting dec 1", "from monday",
// "beginning on jan 4"): its first occurrence is the first on or after it.
var (
	UntilWords = []string{"until", "till", "ending"}
	StartWords = []string{"starting", "from", "beginning"}
)

// WorkWeek is what "every weekday" repeats on; Weekend is "every weekend"
// (each of its days, not once a weekend).
var (
	WorkWeek = []rrule.Weekday{rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR}
	Weekend  = []rrule.Weekday{rrule.SA, rrule.SU}
)

// CountedDays after an ordinal count working days ("the 15th workday"),
// which no repeat here says, so such a phrase is left unread.
var CountedDays = []string{"workday", "workdays", "weekday", "weekdays", "business"}

// MaxInterval bounds "every N days" and the like.
const MaxInterval = 999

var unitFreq = map[when.Unit]rrule.Frequency{when.Day: rrule.DAILY, when.Week: rrule.WEEKLY, when.Month: rrule.MONTHLY, when.Year: rrule.YEARLY}

// scan is one reading of a phrase.
type scan struct {
	t     []when.Token
	j     int
	r     Rule
	until *when.Moment
	from  *when.Moment // "starting dec 1": where the repeat begins
	// "for 8 weeks": the repeat ends that long after it begins.
	forN    int
	forUnit when.Unit
	start   time.Time
}

func (p *scan) at(k int) string {
	if p.j+k < 0 || p.j+k >= len(p.t) {
		return ""
	}
	return p.t[p.j+k].Text
}

func match(toks []when.Token, i int, start time.Time, loc *time.Location) (Rule, int, error) {
	p := &scan{t: toks, j: i, start: start.In(loc)}
	p.r.interval, p.r.loc = 1, loc
	if !p.head() {
		return Rule{}, 0, nil
	}
	p.tail()
	if err := p.finish(); err != nil {
		return Rule{}, 0, err
	}
	return p.r, p.j - i, nil
}

// head reads the repeat itself: "every …", an adverb, or "N units after done".
func (p *scan) head() bool {
	w := p.at(0)
	switch w {
	case "every", "every!":
		p.r.fromDone = w == "every!"
		p.j++
		return p.body()
	}
	if a, ok := Adverbs[w]; ok {
		p.r.freq, p.r.interval = a.Freq, a.Interval
		p.j++
		p.on()
		return true
	}
	if p.dayOfEvery() {
		return true
	}
	if n, ok := when.Count(w); ok {
		if f, ok := p.unit(p.at(1), n); ok && p.at(2) == "after" && slices.Contains(DoneWords, p.at(3)) {
			p.r.freq, p.r.fromDone = f, true
			p.j += 4
			return true
		}
	}
	return false
}

// unit reads a period word after a count: "days", "weeks", "quarters".
func (p *scan) unit(w string, n int) (rrule.Frequency, bool) {
	if n < 1 || n > MaxInterval {
		return 0, false
	}
	if pw, ok := PeriodWords[strings.TrimSuffix(w, "s")]; ok {
		p.r.interval = n * pw.Interval
		return pw.Freq, true
	}
	f, ok := unitFreq[when.Units[w]]
	if ok {
		p.r.interval = n
	}
	return f, ok
}

func (p *scan) body() bool {
	w := p.at(0)
	if n, ok := when.Count(w); ok && w != "a" && w != "an" {
		if f, ok := p.unit(p.at(1), n); ok {
			p.r.freq = f
			p.j += 2
			p.on()
			return true
		}
	}
	if w == "other" {
		p.r.interval = 2
		p.j++
		if pw, ok := PeriodWords[p.at(0)]; ok && pw.Interval == 1 {
			p.r.freq = pw.Freq
			p.j++
			p.on()
			return true
		}
		return p.weekdays()
	}
	if pw, ok := PeriodWords[w]; ok {
		p.r.freq, p.r.interval = pw.Freq, pw.Interval
		p.j++
		p.on()
		return true
	}
	// "every second week" is every 2 weeks; "every second tuesday" is a
	// day of the month (monthSpec).
	if pos := when.OrdinalWords[w]; pos > 0 {
		if pw, ok := PeriodWords[p.at(1)]; ok && pw.Interval == 1 {
			p.r.freq, p.r.interval = pw.Freq, pos
			p.j += 2
			p.on()
			return true
		}
	}
	switch w {
	case "weekday", "weekdays", "workday", "workdays":
		p.r.freq, p.r.days = rrule.WEEKLY, WorkWeek
		p.j++
		return true
	case "weekend", "weekends":
		p.r.freq, p.r.days = rrule.WEEKLY, Weekend
		p.j++
		return true
	}
	if _, ok := when.PartsOfDay[w]; ok {
		c, n := when.MatchDayTime(p.t, p.j)
		p.r.freq, p.r.clock = rrule.DAILY, &c
		p.j += n
		return true
	}
	if p.weekdays() {
		return true
	}
	if p.yearDay() {
		p.r.freq = rrule.YEARLY
		return true
	}
	if p.monthSpec(false) {
		p.r.freq = rrule.MONTHLY
		return true
	}
	return false
}

// on reads what may follow a period: "on monday and thursday" (weeks),
// "on the 15th", "on the last day", "on the 2nd tuesday" (months),
// "on december 5" (years).
func (p *scan) on() {
	if p.at(0) != "on" {
		return
	}
	p.j++
	ok := false
	switch p.r.freq {
	case rrule.WEEKLY:
		f := p.r.freq
		ok = p.weekdays()
		p.r.freq = f
	case rrule.MONTHLY:
		ok = p.monthSpec(true)
	case rrule.YEARLY:
		ok = p.yearDay()
	}
	if !ok {
		p.j--
	}
}

// weekdays reads "friday", "monday and thursday", "mon, wed & fri".
func (p *scan) weekdays() bool {
	var days []rrule.Weekday
	k := 0
	for {
		w := p.at(k)
		d, ok := when.Weekday(w, true)
		if !ok {
			d, ok = when.Weekday(strings.TrimSuffix(w, "s"), true)
		}
		if !ok {
			break
		}
		days = append(days, rruleDay(d, 0))
		k++
		if c := p.at(k); c == "and" || c == "&" {
			if _, ok := when.Weekday(strings.TrimSuffix(p.at(k+1), "s"), true); ok || p.at(k+1) == "thurs" || p.at(k+1) == "tues" {
				k++
			}
		}
	}
	if len(days) == 0 {
		return false
	}
	p.r.freq, p.r.days = rrule.WEEKLY, sortDays(days)
	p.j += k
	return true
}

// monthSpec reads a day of the month: "the 15th", "1st and 15th",
// "last day [of the month]", "2nd tuesday [of the month]". Bare numbers
// need "the" (or to follow "on"), so "every 3" is not a day.
func (p *scan) monthSpec(afterOn bool) bool {
	k := 0
	the := p.at(0) == "the"
	if the {
		k++
	}
	if pos, ok := when.OrdinalWords[p.at(k)]; ok {
		if d, ok := when.Weekday(p.at(k+1), true); ok {
			p.r.days = []rrule.Weekday{rruleDay(d, pos)}
			p.j += k + 2
			p.ofMonth()
			return true
		}
	}
	if p.at(k) == "last" && p.at(k+1) == "day" {
		p.r.monthDays = []int{-1}
		p.j += k + 2
		p.ofMonth()
		return true
	}
	var days []int
	for {
		w := p.at(k)
		if !the && !afterOn && (len(w) < 3 || w[len(w)-1] < 'a') {
			break
		}
		d, ok := when.Ordinal(w)
		if !ok {
			break
		}
		days = append(days, d)
		k++
		if c := p.at(k); c == "and" || c == "&" {
			if _, ok := when.Ordinal(p.at(k + 1)); ok {
				k++
			}
		}
	}
	// "every 15th workday" counts working days, which a repeat here cannot
	// say; it is not the 15th.
	if len(days) == 0 || slices.Contains(CountedDays, p.at(k)) {
		return false
	}
	slices.Sort(days)
	p.r.monthDays = slices.Compact(days)
	p.j += k
	p.ofMonth()
	return true
}

// dayOfEvery reads a day of the month said before its period, as people
// say a rent day: "on the 1st of every month", "the 15th of each month",
// "by the last day of every month", "the 2nd tuesday of every other
// month", "the 1st of every 3 months". A date's prefix ("on", "by", "due",
// "before") may stand first: the day is the due either way.
func (p *scan) dayOfEvery() bool {
	start := p.j
	if slices.Contains(when.DatePrefixes, p.at(0)) {
		p.j++
	}
	if p.monthSpec(true) {
		// monthSpec took "of every month" (or "of each month") itself.
		if p.at(-3) == "of" && (p.at(-2) == "every" || p.at(-2) == "each") && p.at(-1) == "month" {
			p.r.freq = rrule.MONTHLY
			return true
		}
		if p.ofEvery() {
			return true
		}
	}
	p.j, p.r.days, p.r.monthDays = start, nil, nil
	return false
}

// ofEvery reads "of every other month" and "of every 3 months".
func (p *scan) ofEvery() bool {
	if p.at(0) != "of" || p.at(1) != "every" && p.at(1) != "each" {
		return false
	}
	n, ok := 2, p.at(2) == "other"
	if !ok {
		n, ok = when.Count(p.at(2))
	}
	if !ok || n < 2 || n > MaxInterval || p.at(3) != "months" && !(p.at(2) == "other" && p.at(3) == "month") {
		return false
	}
	p.r.freq, p.r.interval = rrule.MONTHLY, n
	p.j += 4
	return true
}

// ofMonth skips "of the month" / "of every month" / "of each month".
func (p *scan) ofMonth() {
	if p.at(0) == "of" && (p.at(1) == "the" || p.at(1) == "every" || p.at(1) == "each") && p.at(2) == "month" {
		p.j += 3
	}
}

// yearDay reads "december 5", "dec 5th", "5 december", "the 5th of december".
func (p *scan) yearDay() bool {
	k := 0
	if p.at(0) == "the" {
		k++
	}
	var mon time.Month
	var dom int
	if m, ok := when.Months[p.at(k)]; ok {
		if d, ok := when.Ordinal(p.at(k + 1)); ok {
			mon, dom, k = m, d, k+2
		}
	} else if d, ok := when.Ordinal(p.at(k)); ok {
		k++
		if p.at(k) == "of" {
			k++
		}
		if m, ok := when.Months[p.at(k)]; ok {
			mon, dom, k = m, d, k+1
		}
	}
	if mon == 0 || dom > time.Date(2028, mon+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return false
	}
	p.r.month, p.r.monthDays = mon, []int{dom}
	p.j += k
	return true
}

// tail reads, in any order and each once: a time of day, "until <date>",
// "for N times" / "N times", and "after done".
func (p *scan) tail() {
	for progress := true; progress; {
		progress = false
		if p.r.clock == nil {
			if c, n := when.MatchDayTime(p.t, p.j); n > 0 {
				p.r.clock, p.j, progress = &c, p.j+n, true
				continue
			}
		}
		if p.until == nil && p.r.count == 0 && p.forN == 0 && slices.Contains(UntilWords, p.at(0)) {
			if m, n := when.MatchDate(p.t, p.j+1, p.start, p.r.loc); n > 0 {
				p.until, p.j, progress = &m, p.j+1+n, true
				continue
			}
		}
		if p.from == nil && slices.Contains(StartWords, p.at(0)) {
			k := 1
			if p.at(1) == "from" || p.at(1) == "on" {
				k++
			}
			if m, n := when.MatchDate(p.t, p.j+k, p.start, p.r.loc); n > 0 {
				p.from, p.j, progress = &m, p.j+k+n, true
				continue
			}
		}
		if p.until == nil && p.r.count == 0 && p.forN == 0 && p.at(0) == "for" {
			if n, ok := when.Count(p.at(1)); ok && n > 0 && n <= MaxInterval {
				if u := when.Units[p.at(2)]; u.Calendar() {
					p.forN, p.forUnit, p.j, progress = n, u, p.j+3, true
					continue
				}
			}
		}
		if p.until == nil && p.r.count == 0 && p.forN == 0 {
			k := 0
			if p.at(0) == "for" {
				k++
			}
			if n, ok := when.Count(p.at(k)); ok && n > 0 && (p.at(k+1) == "times" || n == 1 && p.at(k+1) == "time") {
				p.r.count, p.j, progress = n, p.j+k+2, true
				continue
			}
		}
		if !p.r.fromDone && p.at(0) == "after" && slices.Contains(DoneWords, p.at(1)) {
			p.r.fromDone, p.j, progress = true, p.j+2, true
		}
	}
}

// finish checks the shape, settles UNTIL and anchors the rule.
func (p *scan) finish() error {
	r := &p.r
	if r.fromDone && (len(r.days) > 0 || len(r.monthDays) > 0) {
		return errFromDoneShape
	}
	start := p.start
	if p.from != nil {
		start = p.from.Time
		if r.clock == nil && !p.from.AllDay {
			h, m, _ := start.In(r.loc).Clock()
			r.clock = &when.Clock{Hour: h, Minute: m}
		}
	}
	if p.forN > 0 { // the last day inside the span: "for 1 week" from a Friday ends on Thursday
		y, m, d := start.In(r.loc).Date()
		last := p.forUnit.Add(time.Date(y, m, d, 0, 0, 0, 0, r.loc), p.forN).AddDate(0, 0, -1)
		p.until = &when.Moment{Time: last, AllDay: true}
	}
	if p.until != nil {
		r.until = untilOf(*p.until, r.clock != nil, r.loc)
	}
	return r.build(start)
}

// untilOf makes the last moment of a repeat from a date phrase: a day
// includes all of it for a timed rule and is its midnight for an all-day
// one.
func untilOf(m when.Moment, timed bool, loc *time.Location) time.Time {
	t := m.Time.In(loc)
	y, mo, d := t.Date()
	switch {
	case !timed:
		return time.Date(y, mo, d, 0, 0, 0, 0, loc)
	case m.AllDay:
		return time.Date(y, mo, d, 23, 59, 59, 0, loc)
	}
	return t.Truncate(time.Second)
}

func rruleDay(d time.Weekday, n int) rrule.Weekday {
	w := []rrule.Weekday{rrule.SU, rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR, rrule.SA}[d]
	if n != 0 {
		return w.Nth(n)
	}
	return w
}

func sortDays(days []rrule.Weekday) []rrule.Weekday {
	slices.SortFunc(days, func(a, b rrule.Weekday) int { return a.Day() - b.Day() })
	return slices.Compact(days)
}
