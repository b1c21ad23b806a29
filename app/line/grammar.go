package line

import (
	"maps"
	"slices"

	"tend/app/recur"
	"tend/app/when"
)

// Grammar describes the captured line for GET /v1/meta's grammars.
var Grammar = when.Grammar{
	Description: "Free title words with markers among them: a date phrase (see the date grammar), a repeat phrase (see the repeat grammar), " +
		"!<importance>/<urgency> (each 1-5; either half may be left out: !4, !/3) or Todoist's p1-p4 (p1 is importance 5, p2 4, p3 3, p4 none), ~<duration> (see the duration grammar), #<tag> and " +
		"+<project_key>. Everything else stays in the title, verbatim and in order. The first date, repeat, priority, estimate and project count; " +
		"a later one stays in the title. A time of day after an all-day date gives it that time. #42 (digits) mentions item 42 and stays; " +
		"+44 is not a project. \\#word, \\+word or \\tomorrow keeps the word in the title without the backslash; \"quoted text\" stays as written, quotes included. " +
		"A lone adverb before a title word describes it and stays ('Weekly review every friday'). " +
		"With a repeat, the due is its first occurrence on or after the date phrase (or now), and a date with a time gives a repeat without one that time. " +
		"Structured fields sent beside the text win. POST /v1/tasks/preview answers what a line will become, creating nothing.",
	Examples: []string{"Call the bank tomorrow 9am !4/3 ~30m #finance +home", "Water the plants every other friday", "Pay rent every month on the 1st !5",
		"Weekly review every friday at 16:00", "Dentist next tuesday at 3pm",
		"Fix #42 crash by friday #bug +web", "Pay rent on the 1st of every month", "Call mum tmrw in the evening p2", "Send the report due:2027-04-15", `Read "every day" chapter`, `Post the \#weekly summary on dec 5`, "Call +44 20 7946 0958"},
	Vocabulary: vocabulary(),
}

func vocabulary() []string {
	var v []string
	for _, s := range []byte{'#', '+', '!', '~'} {
		v = append(v, string(s)+string(Sigils[s]))
	}
	return slices.Concat(v, []string{"/", `\`, `"`}, slices.Sorted(maps.Keys(TodoistPriorities)), when.DatePrefixes, []string{"every", "every!", "after done"})
}

// Grammars are every grammar the captured line and the time fields use,
// keyed as GET /v1/meta reports them.
func Grammars() map[string]when.Grammar {
	return map[string]when.Grammar{"line": Grammar, "date": when.DateGrammar, "repeat": recur.Grammar,
		"duration": when.DurationGrammar, "filter": when.FilterGrammar}
}
