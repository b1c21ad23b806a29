package app

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"tend/app/recur"
	"tend/app/when"
)

// phraseError turns a date phrase's or a captured line's refusal into the
// domain's, a validation problem naming the field (loc).
func phraseError(loc string, err error) error {
	var se *when.SyntaxError
	if errors.As(err, &se) {
		return Invalidf(loc, "%s", err.Error())
	}
	return err
}

// repeatError is phraseError for a repeat phrase or rule: one that cannot
// be read is CodeRecurrence.
func repeatError(loc string, err error) error {
	var se *when.SyntaxError
	if errors.As(err, &se) {
		return FieldErrorf(CodeRecurrence, loc, "%s", se.Error())
	}
	return err
}

// restartError is the refusal of a rule that cannot start on the day asked
// (it never happens, or has ended by then). Rule.Restart fails only over
// what the rule and that day mean, so its error is the caller's to fix.
func restartError(loc string, err error) error {
	return FieldErrorf(CodeRecurrence, loc, "%s", err.Error())
}

// taskRule reads a task's stored rule in the task's zone; the zero Rule for
// a task that does not repeat.
func taskRule(t Task) (recur.Rule, error) {
	if t.RepeatRule == "" {
		return recur.Rule{}, nil
	}
	return recur.Parse(t.RepeatRule, t.CreatedAt, loadZone(t.Timezone).Loc)
}

// describeRepeat fills in the sentence of a repeating task's rule. A stored
// rule always parses (it was written by Rule.String); one that no longer
// does is left without a sentence rather than failing the read.
func describeRepeat(t *Task) {
	if t.RepeatRule == "" {
		return
	}
	if r, err := taskRule(*t); err == nil {
		t.RecurrenceDescription = r.Description()
	}
}

// startRepeat makes a task repeat by rule, anchored on the task's due when
// it has one; the due becomes the rule's first occurrence (at or after the
// due it had), so it is always a day the rule produces. A task that was not
// in a series starts one.
func startRepeat(t *Task, rule recur.Rule, zone Zone) error {
	if t.DueAt != nil {
		r, err := rule.Restart(*t.DueAt)
		if err != nil {
			return restartError("body.repeat", err)
		}
		rule = r
	}
	due := rule.Anchor().UTC()
	t.DueAt, t.DueIsAllDay = &due, rule.AllDay()
	t.RepeatRule = rule.String()
	if t.Timezone == "" {
		t.Timezone = zone.Name
	}
	if t.SeriesID == "" {
		t.SeriesID, t.Occurrence = newID(), 1
	}
	describeRepeat(t)
	return nil
}

// seriesValues reads what the series holds for fields changed on this
// occurrence only.
func seriesValues(t Task) map[string]any {
	vals := map[string]any{}
	if t.SeriesValues != "" {
		// Written by setSeriesValues; a value that does not decode counts as none.
		_ = json.Unmarshal([]byte(t.SeriesValues), &vals)
	}
	return vals
}

func setSeriesValues(t *Task, vals map[string]any) {
	if len(vals) == 0 {
		t.SeriesValues = ""
		return
	}
	b, _ := json.Marshal(vals)
	t.SeriesValues = string(b)
}

// keepSeriesValues notes, for an update of this occurrence only, the
// series' value of each series field the update changed (the first change
// keeps the series' value); from now on, the series takes the new values.
func keepSeriesValues(before, after *Task, changes map[string]any, thisOne bool) {
	vals := seriesValues(*before)
	for _, f := range taskFields {
		if _, changed := changes[f.name]; !changed || !f.series {
			continue
		}
		if _, kept := vals[f.name]; kept && thisOne {
			continue
		}
		if thisOne {
			// The field itself, read before the update; it is written out at once.
			vals[f.name] = f.on(before)
		} else {
			delete(vals, f.name)
		}
	}
	setSeriesValues(after, vals)
}

// nextOccurrence is the task that follows prev in its series, ready to be
// stored, or false when the series has ended. Every field the series holds
// (taskField.series) is copied, with the series' values put back where this occurrence
// changed them; the due is the rule's occurrence after prev's scheduled
// one (or, for a rule from completion, after the moment it was done).
func nextOccurrence(prev Task, now time.Time) (Task, bool, error) {
	rule, err := taskRule(prev)
	if err != nil || rule.IsZero() {
		return Task{}, false, err
	}
	if c := rule.Count(); c > 0 && prev.Occurrence >= c {
		return Task{}, false, nil
	}
	n := Task{ID: newID(), WorkspaceID: prev.WorkspaceID, RepeatRule: prev.RepeatRule, SeriesID: prev.SeriesID,
		Occurrence: prev.Occurrence + 1, Version: 1, CreatedAt: now, UpdatedAt: now, ContentUpdatedAt: now}
	copySeries(&n, &prev)
	if err := json.Unmarshal([]byte(orEmptyObject(prev.SeriesValues)), &seriesCopy{&n}); err != nil {
		return Task{}, false, err
	}
	var due time.Time
	var ok bool
	switch {
	case rule.FromCompletion():
		due, ok = rule.NextAfterCompletion(now)
	case n.DueAt != nil:
		due, ok = rule.Next(*n.DueAt)
	default:
		due, ok = rule.Next(now)
	}
	if !ok {
		return Task{}, false, nil
	}
	due = due.UTC()
	n.DueAt, n.DueIsAllDay = &due, rule.AllDay()
	return n, true, nil
}

func orEmptyObject(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// seriesCopy reads series_values onto the next occurrence. A key present
// with null puts back an empty value, so the series' fields are read by
// presence, not by value.
type seriesCopy struct{ t *Task }

func (c *seriesCopy) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for key, v := range raw {
		if f, ok := taskFieldNamed[key]; ok && f.series {
			if err := json.Unmarshal(v, f.on(c.t)); err != nil {
				return err
			}
		}
	}
	return nil
}

// bringNext stores the occurrence that follows prev, when its series goes
// on and has not got it yet (an occurrence reopened and finished again
// brings nothing new), and records it as created. Comments, claims,
// verifications, the plan (starts_at), the deferral and every link but
// "blocks" with open work (carryBlocks) belong to the occurrence they were
// made on and stay with prev; its CalDAV resource moves on with the series
// (passDavResource). It answers the id of the occurrence it
// stored, "" when it stored none.
func bringNext(ctx context.Context, tx Tx, a Actor, prev Task) (string, error) {
	n, ok, err := nextOccurrence(prev, tx.Now())
	if err != nil || !ok {
		return "", err
	}
	if exists, err := tx.OccurrenceExists(ctx, n.SeriesID, n.Occurrence); err != nil || exists {
		return "", err
	}
	st, err := statusFor(ctx, tx, n.WorkspaceID, "task", "", "body.status")
	if err != nil {
		return "", err
	}
	n.StatusID, n.Status, n.CreatedBy, n.UpdatedBy = st.ID, st, a.User.ID, a.User.ID
	if n.Ref, err = tx.NextRef(ctx, n.WorkspaceID); err != nil {
		return "", err
	}
	if err := tx.InsertTask(ctx, &n); err != nil {
		return "", err
	}
	if err := syncReminders(ctx, tx, &n, false); err != nil {
		return "", err
	}
	if _, err := tagNewTask(ctx, tx, a, &n, n.Tags); err != nil {
		return "", err
	}
	if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: n.WorkspaceID, Type: "task", ID: n.ID, Self: n.ID, New: true},
		n.Title, n.Description); err != nil {
		return "", err
	}
	ref := n.Ref
	if err := record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "task", EntityID: n.ID, Action: "task.created",
		ItemRef: &ref, ItemTitle: n.Title, ProjectID: n.ProjectID,
		Changes: map[string]any{"title": n.Title, "series_id": n.SeriesID, "occurrence": n.Occurrence, "after": prev.Ref}}); err != nil {
		return "", err
	}
	if err := passDavResource(ctx, tx, prev, n.ID); err != nil {
		return "", err
	}
	return n.ID, carryBlocks(ctx, tx, a, prev, n)
}

// carryBlocks gives the next occurrence n the "blocks" links prev has with
// open tasks, both ways, so that blocking belongs to the series: a task
// waiting on the repeat stays blocked by its next occurrence, and a task
// the repeat waits on still holds up the next one. prev keeps its links
// as the record of what it blocked; a finished or trashed far end has
// nothing left to wait on or to hold up, and is not carried. Each carried
// link is recorded as made, in n's history.
func carryBlocks(ctx context.Context, tx Tx, a Actor, prev, n Task) error {
	ls, err := tx.LinksOf(ctx, prev.ID)
	if err != nil {
		return err
	}
	var blocks []Link
	var others []string
	for _, l := range ls {
		if l.Type.Key == "blocks" && l.SourceType == "task" && l.TargetType == "task" {
			_, _, other := orient(l, prev.ID)
			blocks, others = append(blocks, l), append(others, other)
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	open, err := tx.Tasks(ctx, TaskQuery{WorkspaceID: prev.WorkspaceID, Readable: "[]", AllReadable: true, Now: tx.Now(),
		IDs: others, OpenOnly: true, SkipSubCounts: true})
	if err != nil {
		return err
	}
	refs := make(map[string]int64, len(open))
	for _, t := range open {
		refs[t.ID] = t.Ref
	}
	var carried []Link
	var events []Event
	self := n.Ref
	for _, l := range blocks {
		direction, _, other := orient(l, prev.ID)
		ref, ok := refs[other]
		if !ok {
			continue
		}
		c := l
		c.ID, c.CreatedBy, c.CreatedAt = newID(), a.User.ID, tx.Now()
		if direction == "outgoing" {
			c.SourceID = n.ID
		} else {
			c.TargetID = n.ID
		}
		carried = append(carried, c)
		events = append(events, stamp(tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "task", EntityID: n.ID,
			Action: "link.created", ItemRef: &self, ItemTitle: n.Title, SubjectType: "link", SubjectID: c.ID,
			Changes: map[string]any{"link_type": l.Type.Key, "direction": direction, "other": ref, "other_type": "task"}}))
	}
	if len(carried) == 0 {
		return nil
	}
	if err := tx.InsertLinks(ctx, carried); err != nil {
		return err
	}
	return tx.InsertEvents(ctx, events)
}
