package app

import (
	"time"

	"tend/app/recur"
	"tend/app/when"
)

// The values of applies_to on an update of a repeating task.
const (
	AppliesThisOne   = "this_one"    // this occurrence only; the next ones keep the series' values
	AppliesFromNowOn = "from_now_on" // this occurrence and every later one
)

// seriesSent reports whether an update changes a field the next occurrence
// copies (taskField.series), by its value or its phrase, which on a
// repeating task needs applies_to. Status, plan, deferral and claims belong
// to one occurrence and need none; repeat always changes the series from
// now on and needs none either.
func seriesSent(in TaskUpdate) bool {
	for _, f := range taskFields {
		if f.series && (f.in(&in).sent() || f.phrase != nil && f.phrase.in(&in).Set) {
			return true
		}
	}
	return false
}

// checkAppliesTo refuses applies_to for a task that does not repeat, and its
// absence where a repeating task's series fields change.
func checkAppliesTo(t Task, in TaskUpdate) error {
	switch {
	case t.RepeatRule == "" && in.AppliesTo.Set:
		return FieldErrorf(CodeAppliesToNotRepeating, "body.applies_to",
			"task #%d does not repeat: applies_to is only for an occurrence of a repeating task; leave it out", t.Ref)
	case t.RepeatRule != "" && !in.AppliesTo.Set && seriesSent(in):
		return FieldErrorf(CodeAppliesToRequired, "body.applies_to",
			"task #%d repeats: say whether the change is for this_one occurrence or from_now_on", t.Ref)
	}
	return nil
}

// readPhrases reads the phrases (defer, plan, until) into the instants
// they set.
func readPhrases(in *TaskUpdate, now time.Time, zone Zone) error {
	var errs []error
	for _, f := range taskFields {
		if f.phrase == nil || !f.phrase.in(in).Set {
			continue
		}
		p, at, allDay := f.phrase.in(in), f.in(in).(*Patch[time.Time]), f.phrase.allDay(in)
		if p.Null || p.Value == "" {
			*at, *allDay = Patch[time.Time]{Set: true, Null: true}, Patch[bool]{Set: true}
			continue
		}
		m, err := when.ParseDate(p.Value, now, zone.Loc)
		if err != nil {
			errs = append(errs, phraseError("body."+f.phrase.name, err))
			continue
		}
		*at, *allDay = Patch[time.Time]{Set: true, Value: m.Time.UTC()}, Patch[bool]{Set: true, Value: m.AllDay}
	}
	return joinErrors(errs...)
}

// updateRepeat starts, changes or stops a task's repeat and keeps the
// series' values for the next occurrence: a change for this_one keeps the
// series' old value aside, from_now_on makes the new value the series'
// own and, for a new due, anchors the rule on it (Rule.Restart).
func updateRepeat(before, t *Task, in TaskUpdate, changes map[string]any, zone Zone, now time.Time) error {
	if _, moved := changes["due_at"]; moved && t.DueAt != nil && t.Timezone == "" {
		t.Timezone = zone.Name
		changes["timezone"] = map[string]any{"from": "", "to": zone.Name}
	}
	if in.Repeat.Set {
		from := before.RecurrenceDescription
		if in.Repeat.Null || in.Repeat.Value == "" {
			t.RepeatRule, t.SeriesValues, t.RecurrenceDescription = "", "", ""
		} else {
			start := now
			if t.DueAt != nil {
				start = *t.DueAt
			}
			rule, err := recur.Parse(in.Repeat.Value, start, zone.Loc)
			if err != nil {
				return repeatError("body.repeat", err)
			}
			if err := startRepeat(t, rule, zone); err != nil {
				return err
			}
			if t.Timezone != before.Timezone {
				changes["timezone"] = map[string]any{"from": before.Timezone, "to": t.Timezone}
			}
			if !sameTime(before.DueAt, t.DueAt) {
				changes["due_at"] = map[string]any{"from": before.DueAt, "to": t.DueAt}
			}
		}
		if from != t.RecurrenceDescription {
			changes["repeat"] = map[string]any{"from": from, "to": t.RecurrenceDescription}
		}
	}
	if before.RepeatRule == "" || t.RepeatRule == "" || !in.AppliesTo.Set {
		return nil
	}
	thisOne := in.AppliesTo.Value == AppliesThisOne
	keepSeriesValues(before, t, changes, thisOne)
	if len(changes) > 0 {
		changes["applies_to"] = in.AppliesTo.Value
	}
	if _, moved := changes["due_at"]; moved && !thisOne && !in.Repeat.Set && t.DueAt != nil {
		rule, err := taskRule(*t)
		if err != nil {
			return err
		}
		if rule, err = rule.Restart(*t.DueAt); err != nil {
			return restartError("body.due_at", err)
		}
		t.RepeatRule = rule.String()
	}
	return nil
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
