// Package recur reads repeat phrases ("every other friday at 9am",
// "every month on the last day", "3 days after done") and RRULE text into
// a Rule: an RFC 5545 recurrence (expanded by github.com/teambition/rrule-go)
// plus an explicit anchor and a mode.
//
// The anchor is DTSTART, and it is always the first real occurrence at or
// after the start the caller gives: never "now", never a day the rule would
// not produce. It is found with the interval forced to 1, because RFC 5545
// counts DTSTART as the first instance and counts intervals from it (with
// INTERVAL=2;BYDAY=FR anchored on a Saturday the next Friday would be
// skipped).
//
// The mode says where the next occurrence counts from: the schedule (the
// RRULE), or the moment the last one was done ("every! 3 days"), which an
// RRULE cannot say, so the Rule carries it beside the rule and the
// canonical text writes it as the X-TEND-FROM-COMPLETION property.
//
// A Rule accepts only shapes its describer can put into words, so every
// rule has a sentence (Description) that parses back to the same rule.
// Expansion is always bounded: an open rule is never expanded whole.
package recur
