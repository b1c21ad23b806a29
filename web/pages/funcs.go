package pages

import (
	"fmt"
	"html/template"
	"slices"
	"strings"
	"sync"
	"time"

	"tend/app"
)

// pageFuncs are the template functions: formatting only, never a rule.
var pageFuncs = template.FuncMap{
	"md":      renderMarkdown,
	"when":    showWhen,
	"isoDate": isoDate,
	"ago":     ago,
	"changes": changes,
	"holder":  holder,
	"deref":   func(p *int) int { return *p },
}

// zones holds the zones read so far by name: time.LoadLocation reads the
// zone database on every call (some 50 µs), and a list writes each row's
// due in its task's zone more than once.
var zones sync.Map

// zoneOf is the named zone, UTC when it is empty or unknown.
func zoneOf(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	zones.Store(name, loc)
	return loc
}

// showWhen writes a due (or any instant) for a person: an all-day date as its
// date, a timed one in the task's zone (UTC when it names none).
func showWhen(t *time.Time, allDay bool, zone string) string {
	if t == nil {
		return ""
	}
	if allDay {
		return t.In(zoneOf(zone)).Format("Mon 2 Jan 2006")
	}
	return t.In(zoneOf(zone)).Format("Mon 2 Jan 2006 15:04 MST")
}

// isoDate writes a due as the edit form takes it back.
func isoDate(t *time.Time, allDay bool, zone string) string {
	if t == nil {
		return ""
	}
	if allDay {
		return t.In(zoneOf(zone)).Format(time.DateOnly)
	}
	return t.In(zoneOf(zone)).Format(time.RFC3339)
}

// ago writes an instant as a date and time in UTC, which every reader can
// place; the page's script is not needed to read it.
func ago(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }

// changes writes an event's changes as "field: from → to" parts.
func changes(c map[string]any) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if ft, ok := c[k].(map[string]any); ok {
			parts = append(parts, fmt.Sprintf("%s: %v → %v", k, dashNil(ft["from"]), dashNil(ft["to"])))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %v", k, dashNil(c[k])))
	}
	return strings.Join(parts, "; ")
}

func dashNil(v any) any {
	if v == nil {
		return "–"
	}
	return v
}

// holder is who has a task in hand: its claimant, else its assignee.
func holder(t *app.Task) string {
	if t.ClaimedBy != "" {
		return t.ClaimedBy + " (claimed)"
	}
	return t.Assignee
}
