package app

import (
	"context"
	"time"

	"tend/app/recur"
)

// davRepeatTx is what repeating tasks need of CalDAV's records.
type davRepeatTx interface {
	// MoveDavRecord gives a task's record (r, written for r.TaskID) to the
	// task that takes its resource over from the task from.
	MoveDavRecord(ctx context.Context, from string, r DavRecord) error
}

// DavOverride is a VTODO that overrides one occurrence of a repeating one
// (RECURRENCE-ID): tend reads whether it completes that occurrence.
type DavOverride struct {
	RecurrenceID DavTime
	Completed    bool // STATUS:COMPLETED, or a COMPLETED without STATUS
}

// RRule is the RRULE value the object is served with: its series from this
// occurrence on (recur.Rule.SeriesFrom), its time of day left to DTSTART; "" for a task that does not
// repeat, is finished, or repeats from completion, which no RRULE states.
func (o DavObject) RRule() string {
	t := o.Task
	if t.RepeatRule == "" || t.IsComplete() || t.DueAt == nil {
		return ""
	}
	r, err := taskRule(t)
	if err != nil {
		return ""
	}
	rr, _ := r.SeriesFrom(*t.DueAt, false)
	return rr
}

// passDavResource hands prev's resource (its name, UID and the lines kept
// for it) to next, the occurrence that follows it: a series is one
// resource, served at its current occurrence, so every client reads the
// next occurrence where it read the last. A task no client named keeps
// the name and UID it was served under. Rev moves on, so that no ETag a
// client holds names the new occurrence.
func passDavResource(ctx context.Context, tx Tx, prev Task, next string) error {
	recs, err := tx.DavRecords(ctx, []string{prev.ID})
	if err != nil {
		return err
	}
	r, ok := recs[prev.ID]
	if !ok {
		r = DavRecord{WorkspaceID: prev.WorkspaceID, Name: prev.ID + davNameSuffix, UID: prev.ID}
	}
	r.TaskID, r.Rev = next, r.Rev+1
	return tx.MoveDavRecord(ctx, prev.ID, r)
}

// davCurrent leaves out the finished occurrences whose next occurrence has
// taken their resource over (passDavResource).
func davCurrent(ctx context.Context, tx Tx, ts []Task) ([]Task, error) {
	out := make([]Task, 0, len(ts))
	for _, t := range ts {
		if t.RepeatRule != "" && t.SeriesID != "" && t.IsComplete() {
			later, err := tx.OccurrenceExists(ctx, t.SeriesID, t.Occurrence+1)
			if err != nil {
				return nil, err
			}
			if later {
				continue
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// davRepeatText is the repeat a VTODO's RRULE states, as the repeat field
// reads it: the RRULE anchored on DUE (else DTSTART) in the task's zone;
// "" for a VTODO without an RRULE.
func davRepeatText(in DavPut, loc *time.Location) string {
	if in.RRule == "" {
		return ""
	}
	anchor := in.Due
	if anchor == nil {
		anchor = in.Start
	}
	if anchor == nil {
		return "RRULE:" + in.RRule
	}
	at, allDay := anchor.in(loc)
	if allDay {
		return "DTSTART;VALUE=DATE:" + at.In(loc).Format("20060102") + "\nRRULE:" + in.RRule
	}
	return "DTSTART:" + at.In(loc).Format("20060102T150405") + "\nRRULE:" + in.RRule
}

// dropServedStart forgets a repeating VTODO's DTSTART where it is the due
// tend serves as DTSTART (clients need one on a repeating task): it is no
// plan of the task's.
func dropServedStart(in *DavPut) {
	if in.RRule != "" && in.Start != nil && in.Due != nil && in.Start.AllDay == in.Due.AllDay && in.Start.At.Equal(in.Due.At) {
		in.Start = nil
	}
}

// davRepeatChange is what a PUT of a repeating task's resource does to its
// repeat.
type davRepeatChange struct {
	complete bool          // complete the current occurrence (and keep its dates)
	repeat   Patch[string] // a new rule, or none
}

// readDavRepeat reads a PUT of the resource of task t, which repeats, whose
// due it moves to due: whether it completes the current occurrence, in
// either style task apps use, and whether it changes the rule.
//
// An override (RECURRENCE-ID) completing the current occurrence completes
// it (Thunderbird, Outlook bridges); an override of any other occurrence
// is ignored, since earlier ones are done and later ones are not due yet.
// A master whose DUE moved exactly one step of its rule on completes the
// occurrence it passed (tasks.org); any other move is a reschedule. A
// master with STATUS:COMPLETED completes it as the API's complete does
// (Apple Reminders, jtx Board), which putDavTask reads as a status.
func readDavRepeat(t Task, in DavPut, due *time.Time, loc *time.Location) (davRepeatChange, error) {
	var out davRepeatChange
	rule, err := taskRule(t)
	if err != nil || t.IsComplete() {
		return out, err
	}
	current := t.DueAt
	if t.StartsAt != nil {
		current = t.StartsAt
	}
	for _, ov := range in.Overrides {
		if at, _ := ov.RecurrenceID.in(loc); ov.Completed && current != nil && at.Equal(*current) {
			out.complete = true
		}
	}
	if !out.complete && in.Category != CategoryDone && due != nil && t.DueAt != nil && !due.Equal(*t.DueAt) {
		next, ok := rule.Next(*t.DueAt)
		out.complete = ok && next.Equal(*due) && !rule.FromCompletion()
	}
	served := DavObject{Task: t}.RRule()
	text := davRepeatText(in, loc)
	switch {
	case in.RRule == "" && served == "":
	case in.RRule == "":
		out.repeat = Patch[string]{Set: true, Null: true}
	case served != "" && sameDavRule(in, served, loc):
	default:
		out.repeat = PatchOf(text)
	}
	return out, nil
}

// sameDavRule reports whether the RRULE a client sent states the rule tend
// served: both are read from the client's anchor and compared as rules,
// never as strings.
func sameDavRule(in DavPut, served string, loc *time.Location) bool {
	var epoch time.Time
	sent, err := recur.Parse(davRepeatText(in, loc), epoch, loc)
	if err != nil {
		return false
	}
	in.RRule = served
	ours, err := recur.Parse(davRepeatText(in, loc), epoch, loc)
	return err == nil && sent.Equal(ours)
}

// davDoneStatus is the status that completes t: the workspace's first
// done one, as completing does; none to change when t is done already.
func davDoneStatus(ctx context.Context, tx Tx, sc *scope, t Task) (Patch[string], error) {
	if t.Status.Category == CategoryDone {
		return Patch[string]{}, nil
	}
	key, err := davStatusKey(ctx, tx, sc, CategoryDone)
	return PatchOf(key), err
}

// davHolder is the task that holds the resource name of a collection after
// a write to task id (at rev), and its rev: the next occurrence, when the
// write completed a repeating one.
func davHolder(ctx context.Context, tx Tx, sc *scope, n *projectNode, name, id string, rev int) (string, int, error) {
	r, err := tx.DavRecordBy(ctx, sc.ws.Workspace.ID, n.ID, name, "")
	switch {
	case CodeOf(err) == CodeNotFound:
		return id, rev, nil
	case err != nil:
		return "", 0, err
	}
	return r.TaskID, max(rev, r.Rev), nil
}
