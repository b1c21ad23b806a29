package pages

import (
	"html/template"
	"strconv"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

// pageFuncs are the template functions: formatting only, never a rule.
var pageFuncs = template.FuncMap{
	"md":        renderMarkdown,
	"when":      showWhen,
	"isoDate":   isoDate,
	"ago":       ago,
	"holder":    holder,
	"deref":     func(p *int) int { return *p },
	"was":       was,
	"joinTags":  func(tags []string) string { return strings.Join(tags, " ") },
	"reminders": app.RemindersListText,
	"remindersWithout": func(rs []app.Reminder, i int) string {
		return app.RemindersListText(append(rs[:i:i], rs[i+1:]...))
	},
	"remindWords": remindWords,
	"clock":       app.Clock,
	"itemLinks": func(entity string, ref int64, show app.ItemShow, choices []linkChoice, q string) linksView {
		return linksView{Entity: entity, Ref: ref, Show: show, Choices: choices, Query: q}
	},
	"dateShort": dateShort,
	"derefTime": func(t *time.Time) time.Time { return *t },
	"viewCount": viewCount,
}

// viewCount is a saved view's count in the top bar: "100+" past the cap.
func viewCount(v app.View) string {
	if v.CountCapped {
		return strconv.Itoa(*v.Count) + "+"
	}
	return strconv.Itoa(*v.Count)
}

// linksView is what the links section of an item page shows and offers.
type linksView struct {
	Entity  string // task or document
	Ref     int64
	Show    app.ItemShow
	Choices []linkChoice
	Query   string // words the picker starts with
}

// was is the hidden field that tells an edit form's handler what a field
// showed, so only what a person changed is saved (edit.go).
func was(name, value string) template.HTML {
	return template.HTML(`<input type="hidden" name="was.` + template.HTMLEscapeString(name) + `" value="` +
		template.HTMLEscapeString(value) + `">`)
}

// dateShort is a day as a list shows it, on one line.
func dateShort(t time.Time) template.HTML {
	return template.HTML(`<span class="nw">` + template.HTMLEscapeString(t.UTC().Format("2 Jan 2006")) + `</span>`)
}

// showWhen writes a due (or any instant) for a person: an all-day date as its
// date, a timed one in the task's zone (UTC when it names none). The date
// and the time each keep to one line, so a narrow column wraps it in two
// at most.
func showWhen(t *time.Time, allDay bool, zone string) template.HTML {
	if t == nil {
		return ""
	}
	at := t.In(wire.Zone(zone))
	day := `<span class="nw">` + template.HTMLEscapeString(at.Format("Mon 2 Jan 2006")) + `</span>`
	if allDay {
		return template.HTML(day)
	}
	return template.HTML(day + ` <span class="nw">` + template.HTMLEscapeString(at.Format("15:04 MST")) + `</span>`)
}

// isoDate writes a due as the edit form takes it back.
func isoDate(t *time.Time, allDay bool, zone string) string {
	if t == nil {
		return ""
	}
	if allDay {
		return t.In(wire.Zone(zone)).Format(time.DateOnly)
	}
	return t.In(wire.Zone(zone)).Format(time.RFC3339)
}

// ago writes an instant as a date and time in UTC, which every reader can
// place; the page's script is not needed to read it.
func ago(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }

// holder is who has a task in hand: its claimant, else its assignee.
func holder(t *app.Task) string {
	if t.ClaimedBy != "" {
		return t.ClaimedBy + " (claimed)"
	}
	return t.Assignee
}

// toldEvent is one line of a history: when, and what happened in words.
type toldEvent struct {
	At   time.Time
	Said string
}

// tell turns a history into sentences (app.Narrate), with the actors'
// names, the statuses' labels, the zone the item's dates are read in and,
// for a project's, the paths of the projects it may have moved under.
func tell(evs []app.Event, actors map[string]string, statuses []app.Status, zone string, projects map[string]string) []toldEvent {
	labels := make(map[string]string, len(statuses))
	for _, st := range statuses {
		labels[st.Key] = st.Label
	}
	loc := wire.Zone(zone)
	out := make([]toldEvent, len(evs))
	for i, e := range evs {
		out[i] = toldEvent{At: e.CreatedAt, Said: app.Narrate(e, app.Telling{Actor: actors[e.ActorUserID], Statuses: labels, Zone: loc, Projects: projects})}
	}
	return out
}

// remindWords says a reminder as the task page lists it: "at the due",
// "30 min before", "2 days before", "at Tue 3 Mar 2026 07:00 CET".
func remindWords(r app.Reminder, zone string) template.HTML {
	if r.At != nil {
		return "at " + showWhen(r.At, false, zone)
	}
	n, _ := strconv.Atoi(r.Before[:len(r.Before)-1])
	unit := map[byte]string{'m': "min", 'h': "h", 'd': "day"}[r.Before[len(r.Before)-1]]
	switch {
	case n == 0:
		return "at the due"
	case unit == "day" && n != 1:
		unit = "days"
	}
	return template.HTML(strconv.Itoa(n) + " " + unit + " before")
}
