package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Notification is one row of the notification outbox: one thing to tell
// one person on one channel. ID is stable across retries, so a receiver
// drops a repeat.
type Notification struct {
	Seq         int64
	ID          string
	UserID      string
	ChannelID   string // "" once the channel is removed
	Kind        string // reminder, digest, test, late or clear
	FireSeq     int64  // the reminder firing it tells of; 0 for none
	TaskID      string
	WorkspaceID string
	Title       string
	Body        string
	// Path is the page a click opens, under the instance's URL.
	Path         string
	Late         bool
	State        string // pending, sent or failed
	Attempts     int
	DueAt        time.Time
	LeaseUntil   *time.Time
	SentAt       *time.Time
	LastError    string
	ActionUsedAt *time.Time
	CreatedAt    time.Time
	// Clears is, for a clear, the id of the notification whose message it
	// takes off the person's devices.
	Clears string
}

// newNotificationID is a notification's id: ntf_ and a UUID.
func newNotificationID() string { return "ntf_" + uuid.Must(uuid.NewV7()).String() }

// notifyDueText says when t is due as a notification does, in loc, as of now:
// "Due today 09:00", "Due tomorrow", "Due Fri 6 Mar 14:30"; "" without a
// due.
func notifyDueText(t Task, loc *time.Location, now time.Time) string {
	if t.DueAt == nil {
		return ""
	}
	d := t.DueAt.In(loc)
	if t.DueIsAllDay {
		taskZone := loc
		if t.Timezone != "" {
			taskZone = loadZone(t.Timezone).Loc
		}
		y, m, dd := t.DueAt.In(taskZone).Date()
		d = time.Date(y, m, dd, 0, 0, 0, 0, loc)
	}
	day := d.Format("Mon 2 Jan")
	ny, nm, nd := now.In(loc).Date()
	today := time.Date(ny, nm, nd, 0, 0, 0, 0, loc)
	switch time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc) {
	case today:
		day = "today"
	case today.AddDate(0, 0, 1):
		day = "tomorrow"
	case today.AddDate(0, 0, -1):
		day = "yesterday"
	}
	if t.DueIsAllDay {
		return "Due " + day
	}
	return "Due " + day + " " + d.Format("15:04")
}

// lateSummary is the one notification standing for many reminders that
// fell due while tend was not running: how many, and the first titles.
func lateSummary(titles []string) (title, body string) {
	title = fmt.Sprintf("%d reminders fell due while tend was not running", len(titles))
	return title, firstTitles(titles)
}

// firstTitles names the first five titles and says how many more there
// are.
func firstTitles(titles []string) string {
	shown := titles[:min(len(titles), 5)]
	body := strings.Join(shown, "; ")
	if len(titles) > len(shown) {
		body += fmt.Sprintf("; and %d more", len(titles)-len(shown))
	}
	return body
}

// taskPath is a task's page.
func taskPath(t Task) string {
	return fmt.Sprintf("/tasks/%d?workspace_id=%s", t.Ref, t.WorkspaceID)
}

// visibleTasks reads the tasks ids as u may read them now, by id: what u
// may not see (gone, trashed, in a project u lost) is left out, exactly as
// if it did not exist.
func visibleTasks(ctx context.Context, tx Tx, u User, ids []string) (map[string]Task, *Zone, error) {
	out := map[string]Task{}
	a := Actor{User: u, Interface: "notify"}
	acc, err := accessOf(ctx, tx, a)
	if isRefusal(err) {
		return out, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	byWS := map[string][]string{}
	for _, id := range ids {
		loc, err := tx.TaskLocator(ctx, "", id)
		if CodeOf(err) == CodeNotFound {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		byWS[loc.WorkspaceID] = append(byWS[loc.WorkspaceID], id)
	}
	var zone *Zone
	for ws, wids := range byWS {
		w, err := acc.pick(ws)
		if isRefusal(err) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return nil, nil, err
		}
		ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: wids, Limit: len(wids), SkipSubCounts: true}))
		if err != nil {
			return nil, nil, err
		}
		for _, t := range ts {
			out[t.ID] = t
		}
		if zone == nil {
			z := loadZone(sc.readerZoneName())
			zone = &z
		}
	}
	return out, zone, nil
}
