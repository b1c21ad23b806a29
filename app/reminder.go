package app

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"tend/app/line"
)

// Reminder is one of a task's reminders: Before its due (a count of
// minutes, hours or days: "30m", "1h", "2d"; "0m" is at the due) or At an
// instant. FireAt is resolved on read: the next time it fires, nil once
// past or, for Before, while the task has no due. Acknowledged is when a
// calendar app last acknowledged the reminder's alarm (its VALARM's
// ACKNOWLEDGED): a firing at or before it has been seen, so tend does not
// queue it.
type Reminder struct {
	Before       string
	At           *time.Time
	FireAt       *time.Time
	Acknowledged *time.Time
}

// MaxReminders is how many reminders one task, or a person's defaults,
// may hold.
const MaxReminders = 10

// maxBefore is the furthest ahead of its due a reminder may fire.
const maxBefore = 60 * 24 * time.Hour

// DefaultReminderMinute is the time of day, in minutes after midnight in
// the person's zone, that an all-day due reminds at unless they pick one.
const DefaultReminderMinute = 9 * 60

var beforePattern = regexp.MustCompile(`^([0-9]{1,6})([mhd])$`)

// Key is the reminder's canonical text, which names it among a task's
// reminders and in the rows that fire it: "before:30m", "at:<instant>".
func (r Reminder) Key() string {
	if r.At != nil {
		return "at:" + r.At.UTC().Format(time.RFC3339)
	}
	return "before:" + r.Before
}

// ReminderOfKey reads a reminder's Key back; ok is false for any other
// text.
func ReminderOfKey(key string) (Reminder, bool) {
	kind, v, _ := strings.Cut(key, ":")
	switch kind {
	case "before":
		b, ok := ParseBefore(v)
		return Reminder{Before: b}, ok
	case "at":
		at, err := time.Parse(time.RFC3339, v)
		return Reminder{At: &at}, err == nil
	}
	return Reminder{}, false
}

// beforeParts splits a checked Before into its count and unit.
func (r Reminder) beforeParts() (int, byte) {
	m := beforePattern.FindStringSubmatch(r.Before)
	n, _ := strconv.Atoi(m[1])
	return n, m[2][0]
}

// ParseBefore reads a written offset ("30m", "1h", "2d", "90 min") into
// Before's canonical form; ok is false for anything else.
func ParseBefore(s string) (string, bool) {
	m := beforePattern.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	n, _ := strconv.Atoi(m[1])
	return strconv.Itoa(n) + m[2], true
}

// checkReminders refuses a list of reminders that breaks a rule: each is
// exactly one of before (a count and a unit m, h or d, at most 60 days)
// and at (an instant tend stores), no more than MaxReminders, none twice.
// It tidies each before to its canonical text. relativeOnly refuses at
// (a person's defaults apply to tasks not yet written).
func checkReminders(loc string, rs []Reminder, relativeOnly bool) []error {
	if len(rs) > MaxReminders {
		return []error{FieldErrorf(CodeOverLimit, loc, "at most %d reminders; got %d", MaxReminders, len(rs))}
	}
	var errs []error
	seen := map[string]bool{}
	for i := range rs {
		r, at := &rs[i], fmt.Sprintf("%s.%d", loc, i)
		switch {
		case r.At != nil && r.Before != "":
			errs = append(errs, Invalidf(at, "a reminder is either before its due or at an instant, not both"))
		case r.At != nil && relativeOnly:
			errs = append(errs, Invalidf(at+".at", "a default reminder is before the due: {\"before\": \"30m\"}"))
		case r.At != nil:
			if err := checkInstant(at+".at", r.At); err != nil {
				errs = append(errs, err)
			}
			u := r.At.UTC().Truncate(time.Second)
			r.At = &u
		case r.Before == "":
			errs = append(errs, Invalidf(at, "a reminder needs before (\"30m\", \"1h\", \"1d\") or at (an instant)"))
		default:
			b, ok := ParseBefore(r.Before)
			if !ok {
				errs = append(errs, Invalidf(at+".before", "a whole number and a unit m, h or d, as \"30m\", \"1h\" or \"1d\"; got %q", r.Before))
				continue
			}
			r.Before = b
			if r.beforeDuration() > maxBefore {
				errs = append(errs, Invalidf(at+".before", "at most 60 days before the due"))
			}
		}
		if seen[r.Key()] {
			errs = append(errs, Invalidf(at, "the same reminder twice"))
		}
		seen[r.Key()] = true
	}
	return errs
}

// beforeDuration is Before as a length of time, a day counted as 24 hours.
func (r Reminder) beforeDuration() time.Duration {
	n, unit := r.beforeParts()
	switch unit {
	case 'd':
		return time.Duration(n) * 24 * time.Hour
	case 'h':
		return time.Duration(n) * time.Hour
	}
	return time.Duration(n) * time.Minute
}

// fireAt is when r fires for a person whose zone is zone and whose
// all-day reminders ring at minute after midnight, for a task due at due
// (in the task's zone taskZone); nil when r is relative and there is no
// due. A count of days goes back by calendar days in the zone the due is
// read in, so "1d" before 09:00 is 09:00 the day before across a change
// of clocks.
func (r Reminder) fireAt(due *time.Time, allDay bool, taskZone, zone *time.Location, minute int) *time.Time {
	if r.At != nil {
		return r.At
	}
	if due == nil {
		return nil
	}
	base, loc := due.In(taskZone), taskZone
	if allDay {
		y, m, d := base.Date()
		base, loc = time.Date(y, m, d, minute/60, minute%60, 0, 0, zone), zone
	}
	n, unit := r.beforeParts()
	var at time.Time
	if unit == 'd' {
		at = base.In(loc).AddDate(0, 0, -n)
	} else {
		at = base.Add(-r.beforeDuration())
	}
	at = at.UTC()
	return &at
}

// RemindersText is a task's reminders as stored: a JSON array of
// {"before": "30m"} and {"at": "<instant>"}, "" for none.
func RemindersText(rs []Reminder) string {
	if len(rs) == 0 {
		return ""
	}
	b, _ := json.Marshal(storedList(rs))
	return string(b)
}

// storedList is rs as the task's column and an event's changes hold them.
func storedList(rs []Reminder) []map[string]string {
	out := make([]map[string]string, len(rs))
	for i, r := range rs {
		if r.At != nil {
			out[i] = map[string]string{"at": r.At.UTC().Format(time.RFC3339)}
		} else {
			out[i] = map[string]string{"before": r.Before}
		}
		if r.Acknowledged != nil {
			out[i]["acknowledged"] = r.Acknowledged.UTC().Format(time.RFC3339)
		}
	}
	return out
}

// ParseRemindersText reads reminders as RemindersText stored them.
func ParseRemindersText(s string) ([]Reminder, error) {
	if s == "" {
		return nil, nil
	}
	var in []map[string]string
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, err
	}
	out := make([]Reminder, len(in))
	for i, r := range in {
		out[i].Before = r["before"]
		for name, p := range map[string]**time.Time{"at": &out[i].At, "acknowledged": &out[i].Acknowledged} {
			if v, ok := r[name]; ok {
				t, err := time.Parse(time.RFC3339, v)
				if err != nil {
					return nil, err
				}
				*p = &t
			}
		}
	}
	return out, nil
}

// sameReminders reports whether two lists hold the same reminders in the
// same order, acknowledged at the same time.
func sameReminders(a, b []Reminder) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key() != b[i].Key() || !sameInstant(a[i].Acknowledged, b[i].Acknowledged) {
			return false
		}
	}
	return true
}

// sameInstant reports whether a and b are both nil or the same instant.
func sameInstant(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

// keepAcknowledged gives each of rs that names no acknowledgement the one
// the reminder of the same key in was holds: a list written again through
// the API, which never says it, leaves what an app acknowledged.
func keepAcknowledged(rs, was []Reminder) {
	for i := range rs {
		if rs[i].Acknowledged != nil {
			continue
		}
		for _, w := range was {
			if w.Key() == rs[i].Key() {
				rs[i].Acknowledged = w.Acknowledged
			}
		}
	}
}

// ReminderFire is one pending firing of a reminder for one person.
type ReminderFire struct {
	TaskID   string
	UserID   string
	Reminder string // the reminder's Key
	FireAt   time.Time
	DueAt    *time.Time
}

type reminderTx interface {
	// ReplaceReminderFires deletes the pending firings of the tasks ids and
	// queues fires instead; a firing already sent keeps its row and is not
	// queued again. With keepDue, a pending firing due at now and a snooze
	// stay.
	ReplaceReminderFires(ctx context.Context, ids []string, fires []ReminderFire, now time.Time, keepDue bool) error
	// PendingReminderFires are the pending firings of the tasks ids, by
	// task.
	PendingReminderFires(ctx context.Context, ids []string) (map[string][]ReminderFire, error)
	// PendingReminderTasks lists the tasks with a firing pending for the
	// person userID.
	PendingReminderTasks(ctx context.Context, userID string) ([]TaskLocation, error)
}

// reminderRecipient is the person a task's reminders fire for: its
// assignee, else its creator; an agent's fire for the person it answers
// to (at the top of its chain), since an agent carries no device. None
// when nobody active is left to tell.
func reminderRecipient(ctx context.Context, tx Tx, t Task) (User, bool, error) {
	id := t.AssigneeID
	if id == "" {
		id = t.CreatedBy
	}
	if id == "" {
		return User{}, false, nil
	}
	u, err := tx.UserByID(ctx, id)
	if CodeOf(err) == CodeNotFound {
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, err
	}
	if u.IsServiceAccount {
		if u.Responsible == "" {
			return User{}, false, nil
		}
		if u, err = tx.UserByName(ctx, u.Responsible); err != nil {
			return User{}, false, err
		}
	}
	return u, u.Active, nil
}

// syncReminders queues the firings t's reminders call for now and
// withdraws what it queued before: none for a task in the trash or
// finished, none before a deferral ends, none in the past. A firing
// already due but not yet turned into a notification (tend was down, or
// the worker has not reached it) and a snooze are kept while the task
// stays remindable: the write did not make them any less owed. It sets
// each reminder's FireAt as a read would give it. Every write of a task
// calls it in the write's transaction; cleared is set when the write took
// the task's last reminders away, which leaves none to look at but rows
// to withdraw. A task that never had any costs no statement.
func syncReminders(ctx context.Context, tx Tx, t *Task, cleared bool) error {
	if len(t.Reminders) == 0 && !cleared {
		return nil
	}
	fires, err := reminderFires(ctx, tx, t)
	if err != nil {
		return err
	}
	if err := tx.ReplaceReminderFires(ctx, []string{t.ID}, fires, tx.Now(), t.remindable()); err != nil {
		return err
	}
	if t.finished() {
		if err := clearNotified(ctx, tx, t); err != nil {
			return err
		}
	}
	// The list may share its array with the occurrence it was copied from.
	t.Reminders = append([]Reminder(nil), t.Reminders...)
	setFireAt(t, fires, tx.Now())
	return nil
}

// reminderFires are the firings t's reminders call for, as of tx's clock.
func reminderFires(ctx context.Context, tx Tx, t *Task) ([]ReminderFire, error) {
	if !t.remindable() {
		return nil, nil
	}
	u, ok, err := reminderRecipient(ctx, tx, *t)
	if err != nil || !ok {
		return nil, err
	}
	ws, err := tx.WorkspaceByID(ctx, t.WorkspaceID)
	if err != nil {
		return nil, err
	}
	zone, err := readerZone(ctx, tx, u, &ws)
	if err != nil {
		return nil, err
	}
	return firesFor(t, u, zone.Loc, tx.Now()), nil
}

// remindable reports whether t has reminders that may fire: it is live
// and not finished.
func (t *Task) remindable() bool {
	return len(t.Reminders) > 0 && !t.finished()
}

// finished is whether t owes no reminder whatever its list: completed,
// cancelled or in the trash.
func (t *Task) finished() bool {
	return t.DeletedAt != nil || t.CompletedAt != nil || t.IsComplete()
}

// firesFor are the firings t's reminders call for after now, for u, whose
// zone is zone.
func firesFor(t *Task, u User, zone *time.Location, now time.Time) []ReminderFire {
	if !t.remindable() {
		return nil
	}
	taskZone := zone
	if t.Timezone != "" {
		taskZone = loadZone(t.Timezone).Loc
	}
	var out []ReminderFire
	for _, r := range t.Reminders {
		at := r.fireAt(t.DueAt, t.DueIsAllDay, taskZone, zone, u.ReminderMinute)
		if at == nil || !at.After(now) || t.SnoozedUntil != nil && at.Before(*t.SnoozedUntil) ||
			r.Acknowledged != nil && !at.After(*r.Acknowledged) {
			continue
		}
		out = append(out, ReminderFire{TaskID: t.ID, UserID: u.ID, Reminder: r.Key(), FireAt: *at, DueAt: t.DueAt})
	}
	return out
}

// setFireAt sets each of t's reminders' FireAt to its earliest pending
// firing after now.
func setFireAt(t *Task, fires []ReminderFire, now time.Time) {
	for i := range t.Reminders {
		t.Reminders[i].FireAt = nil
		for _, f := range fires {
			if f.Reminder != t.Reminders[i].Key() || !f.FireAt.After(now) {
				continue
			}
			if cur := t.Reminders[i].FireAt; cur == nil || f.FireAt.Before(*cur) {
				at := f.FireAt
				t.Reminders[i].FireAt = &at
			}
		}
	}
}

// resolveFireAt fills in FireAt on the reminders of tasks read, from their
// pending firings: one query for the lot, none when no task has any.
func resolveFireAt(ctx context.Context, tx Tx, ts []Task) error {
	var ids []string
	for _, t := range ts {
		if len(t.Reminders) > 0 {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	fires, err := tx.PendingReminderFires(ctx, ids)
	if err != nil {
		return err
	}
	for i := range ts {
		if len(ts[i].Reminders) > 0 {
			setFireAt(&ts[i], fires[ts[i].ID], tx.Now())
		}
	}
	return nil
}

// applyReminders replaces the task's reminders with those sent.
func applyReminders(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if !u.Reminders.Set {
		return nil
	}
	rs := u.Reminders.Value
	if u.Reminders.Null {
		rs = nil
	}
	rs = append([]Reminder(nil), rs...)
	keepAcknowledged(rs, t.Reminders)
	if sameReminders(rs, t.Reminders) {
		return nil
	}
	w.changes[f.name] = map[string]any{"from": storedList(t.Reminders), "to": storedList(rs)}
	t.Reminders = append([]Reminder(nil), rs...)
	return nil
}

func checkRemindersField(_ *Service, loc string, p patch) []error {
	if p.null() {
		return nil
	}
	return checkReminders(loc, p.(*Patch[[]Reminder]).Value, false)
}

// resyncReminders queues again the firings of the tasks ids (restored
// from the trash with a parent) that have reminders.
func resyncReminders(ctx context.Context, tx Tx, sc *scope, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, Limit: len(ids), SkipSubCounts: true}))
	if err != nil {
		return err
	}
	for i := range ts {
		if err := syncReminders(ctx, tx, &ts[i], false); err != nil {
			return err
		}
	}
	return nil
}

// ParseRemindersList reads reminders as a person writes them in one line
// of text, apart by commas: an offset before the due ("30m", "1h", "2d")
// or an instant (RFC 3339). The pages' form, the terminal's flags and
// MCP's arguments share it.
func ParseRemindersList(text string) ([]Reminder, error) {
	out := []Reminder{}
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(item), " before"))
		if item == "" {
			continue
		}
		if b, ok := ParseBefore(item); ok {
			out = append(out, Reminder{Before: b})
			continue
		}
		at, err := time.Parse(time.RFC3339, item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an offset before the due (30m, 1h, 1d) nor an instant (2026-05-01T07:00:00Z)", item)
		}
		at = at.UTC()
		out = append(out, Reminder{At: &at})
	}
	return out, nil
}

// ParseClock reads a time of day, "09:00" or "9:00", into minutes after
// midnight.
func ParseClock(s string) (int, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

// Clock writes minutes after midnight as a time of day, "09:00".
func Clock(minute int) string {
	return fmt.Sprintf("%02d:%02d", minute/60, minute%60)
}

// reminderPage is how many tasks moveReminders reads and queues at once.
const reminderPage = 500

// moveReminders queues again, after a change of a person's reminder time
// or timezone (zone), the pending firings of theirs that the change moves:
// those of an all-day due, which fires at their reminder time in their
// zone, and, when their zone changed, those of a task with no zone of its
// own, whose due is read in theirs. It works a page of tasks at a time, a
// read and a replace of their firings for each, so that a person with
// thousands of dated tasks costs pages, not statements per task.
func moveReminders(ctx context.Context, tx Tx, u User, zone bool) error {
	locs, err := tx.PendingReminderTasks(ctx, u.ID)
	if err != nil {
		return err
	}
	byWorkspace := map[string][]string{}
	for _, l := range locs {
		byWorkspace[l.WorkspaceID] = append(byWorkspace[l.WorkspaceID], l.ID)
	}
	for wsID, all := range byWorkspace {
		ws, err := tx.WorkspaceByID(ctx, wsID)
		if err != nil {
			return err
		}
		z, err := readerZone(ctx, tx, u, &ws)
		if err != nil {
			return err
		}
		for len(all) > 0 {
			ids := all[:min(reminderPage, len(all))]
			all = all[len(ids):]
			ts, err := tx.Tasks(ctx, TaskQuery{WorkspaceID: wsID, AllReadable: true, Now: tx.Now(), IDs: ids, Limit: len(ids), SkipSubCounts: true})
			if err != nil {
				return err
			}
			var moved []string
			var fires []ReminderFire
			for i := range ts {
				if ts[i].DueIsAllDay || zone && ts[i].Timezone == "" {
					moved = append(moved, ts[i].ID)
					fires = append(fires, firesFor(&ts[i], u, z.Loc, tx.Now())...)
				}
			}
			if err := tx.ReplaceReminderFires(ctx, moved, fires, tx.Now(), true); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyReminderSettings changes an account's own reminder settings (null
// sets them back to the defaults); nobody else may.
func applyReminderSettings(u *User, in UserUpdate, self bool, changes map[string]any) error {
	if !in.ReminderTime.Set && !in.DefaultReminders.Set && !in.DigestTime.Set {
		return nil
	}
	if !self {
		return Errorf(CodeForbidden, "only %s can change their own reminder settings", u.Username)
	}
	if in.ReminderTime.Set {
		m, ok := ParseClock(in.ReminderTime.Value)
		if !ok {
			m = DefaultReminderMinute
		}
		if m != u.ReminderMinute {
			changes["reminder_time"] = map[string]any{"from": Clock(u.ReminderMinute), "to": Clock(m)}
			u.ReminderMinute = m
		}
	}
	if in.DefaultReminders.Set && !sameReminders(in.DefaultReminders.Value, u.DefaultReminders) {
		changes["default_reminders"] = map[string]any{"from": storedList(u.DefaultReminders), "to": storedList(in.DefaultReminders.Value)}
		u.DefaultReminders = in.DefaultReminders.Value
	}
	if in.DigestTime.Set {
		var m *int
		if v, ok := ParseClock(in.DigestTime.Value); ok && !in.DigestTime.Null {
			m = &v
		}
		if digestClock(m) != digestClock(u.DigestMinute) {
			changes["digest_time"] = map[string]any{"from": digestClock(u.DigestMinute), "to": digestClock(m)}
			u.DigestMinute = m
		}
	}
	return nil
}

// digestClock writes a digest time as the wire does: "07:30", or nil when
// off.
func digestClock(m *int) any {
	if m == nil {
		return nil
	}
	return Clock(*m)
}

// lineReminders are the reminders a captured line says.
func lineReminders(in []line.Remind) []Reminder {
	out := make([]Reminder, len(in))
	for i, r := range in {
		if r.Before != "" {
			out[i].Before = r.Before
			continue
		}
		at := r.At.UTC()
		out[i].At = &at
	}
	return out
}

// RemindersListText writes reminders as ParseRemindersList reads them:
// "30m, 1d, 2026-05-01T07:00:00Z".
func RemindersListText(rs []Reminder) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.Before
		if r.At != nil {
			parts[i] = r.At.UTC().Format(time.RFC3339)
		}
	}
	return strings.Join(parts, ", ")
}
