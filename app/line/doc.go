// Package line reads a captured line: free title words with markers
// embedded among them, as a person types a task in one go.
//
//	Call the bank tomorrow 9am !4/3 ~30m #finance +home
//	Water the plants every other friday
//
// Markers: a date phrase (app/when), a repeat phrase (app/recur),
// !<importance>/<urgency> (each 1-5, either half may be left out: !4,
// !/3), ~<duration>, #<tag> and +<project_key>. Everything else stays in
// the title verbatim and in order. The decisions, written once in
// docs/time.md:
//
//   - The first of each kind counts; a second date, repeat, project or
//     importance stays in the title. Tags may be many.
//   - A time of day written after an all-day date gives the date its time
//     ("tomorrow about the report at 3pm").
//   - #42 (digits only) mentions item 42 and stays in the title; +44
//     (a digit first) is not a project key and stays too.
//   - A word written \#word, \+word or \tomorrow stays in the title
//     without its backslash; text in double quotes ("every day", “…”)
//     stays in the title with its quotes, markers and all.
//   - With a repeat, the due is the repeat's first occurrence at or after
//     the date phrase (or the moment of reading when there is none).
package line
