package calfeed_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"tend/store/storetest"
)

// TestCalendarFeedAlarms checks that a timed task's reminders reach its
// event as VALARMs, relative to the due or absolute, that an all-day one
// carries only its absolute reminders and a finished one none.
func TestCalendarFeedAlarms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	day := storetest.Epoch.AddDate(0, 0, 3)
	at := day.Add(2 * time.Hour).Format(time.RFC3339)
	reminders := []map[string]any{{"before": "30m"}, {"before": "1d"}, {"before": "0m"}, {"at": at}}
	timed := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Standup",
		"due_at": day.Add(5 * time.Hour).Format(time.RFC3339), "assignee": "admin", "reminders": reminders})
	spanned := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Workshop",
		"starts_at": day.Add(3 * time.Hour).Format(time.RFC3339), "due_at": day.Add(5 * time.Hour).Format(time.RFC3339),
		"assignee": "admin", "reminders": []map[string]any{{"before": "2h"}}})
	allDay := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Rent",
		"due_at": day.Format(time.RFC3339), "due_is_all_day": true, "assignee": "admin", "reminders": reminders})
	done := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Done",
		"due_at": day.Add(6 * time.Hour).Format(time.RFC3339), "assignee": "admin", "status": "done", "reminders": reminders})
	url, _ := e.Calendar(e.Admin, map[string]any{"title": "Mine", "audience": "me"})
	f := e.FetchFeed(url, nil)
	if f.Status != http.StatusOK {
		t.Fatalf("status %d\n%s", f.Status, f.Body)
	}
	evs := events(t, f.Cal)
	stamp := day.Add(2 * time.Hour).UTC().Format("20060102T150405Z")
	for _, c := range []struct {
		task map[string]any
		want []string
	}{
		{timed, []string{"TRIGGER:-PT30M", "TRIGGER:-P1D", "TRIGGER:PT0S", "TRIGGER;VALUE=DATE-TIME:" + stamp}},
		{spanned, []string{"TRIGGER;RELATED=END:-PT2H"}},
		{allDay, []string{"TRIGGER;VALUE=DATE-TIME:" + stamp}},
		{done, nil},
	} {
		ev := evs[c.task["id"].(string)+"@tend"]
		alarms := ev.Children
		if len(alarms) != len(c.want) {
			t.Errorf("%s: %d alarms, want %d\n%s", c.task["title"], len(alarms), len(c.want), f.Body)
			continue
		}
		for i, a := range alarms {
			p := a.Props.Get(ical.PropTrigger)
			got := "TRIGGER"
			for k, v := range p.Params {
				got += ";" + k + "=" + v[0]
			}
			got += ":" + p.Value
			if a.Name != ical.CompAlarm || a.Props.Get(ical.PropAction).Value != "DISPLAY" || got != c.want[i] {
				t.Errorf("%s: alarm %d is %s %s, want a DISPLAY with %s", c.task["title"], i, a.Name, got, c.want[i])
			}
		}
	}
}
