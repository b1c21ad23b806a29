// Package when reads the time words people write: dates and times of day
// ("friday 9am", "dec 5", "in 2 weeks"), offsets ("-7d", "+3 months") and
// durations ("1h30m"). It is one vocabulary, used by the captured line
// (app/line), the repeat phrases (app/recur), the listing filters and the
// `until`, `defer` and `plan` fields, and it is described once in
// docs/time.md.
//
// Every function is pure: the moment of reading (now) and the reader's
// zone (loc) are arguments, never the clock of the machine. A date without
// a time of day is all-day: it is reported as midnight in loc with
// Moment.AllDay set.
package when
