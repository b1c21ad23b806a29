package cli

import (
	"context"
	"fmt"
	"strings"

	"tend/web/wire"
)

// titleWidth is where a table cuts a title; the full one is in tend show.
const titleWidth = 60

// Task writes the task a command left (verb says what it did: "added",
// "done", "claimed"): for people the ref, the title and what tend read
// from the line or made of it (project, due, tags, levels, estimate,
// repeat, who has it); the record itself as JSON; or its compact line.
func (p Printer) Task(ctx context.Context, verb string, t wire.Task) error {
	switch p.Format {
	case FormatJSON:
		return p.JSON(t)
	case FormatCompact:
		return p.compactTasks(ctx, []wire.Task{t}, "tasks")
	}
	p.line("%s %s %s", verb, p.paint(bold, refText(t.Ref)), t.Title)
	if facts := p.facts(t); len(facts) > 0 {
		p.line("  %s", strings.Join(facts, " · "))
	}
	return nil
}

// facts are what a person wants to know of a task besides its title.
func (p Printer) facts(t wire.Task) []string {
	f := []string{p.paint(statusStyle(t.StatusCategory), t.Status), t.ProjectPath}
	if t.DueAt != nil {
		due, overdue := p.When(*t.DueAt, t.DueIsAllDay, wire.Deref(t.Timezone))
		style := ""
		if overdue && !t.IsComplete {
			style = red
		}
		f = append(f, "due "+p.paint(style, due))
	}
	if t.SnoozedUntil != nil {
		until, _ := p.When(*t.SnoozedUntil, t.SnoozedIsAllDay, wire.Deref(t.Timezone))
		f = append(f, "deferred until "+until)
	}
	if t.RecurrenceDescription != nil {
		f = append(f, *t.RecurrenceDescription)
	}
	if len(t.Tags) > 0 {
		f = append(f, p.paint(cyan, "#"+strings.Join(t.Tags, " #")))
	}
	if t.Importance != nil || t.Urgency != nil {
		levels := "!" + level(t.Importance)
		if t.Urgency != nil {
			levels += "/" + level(t.Urgency)
		}
		f = append(f, levels)
	}
	if t.EstimateMinutes != nil {
		f = append(f, "~"+minutes(*t.EstimateMinutes))
	}
	if t.ClaimedBy != nil && t.ClaimExpiresAt != nil {
		until, _ := p.When(*t.ClaimExpiresAt, false, "")
		f = append(f, "claimed by "+*t.ClaimedBy+" until "+until)
	} else if t.Assignee != nil {
		f = append(f, "assigned to "+*t.Assignee)
	}
	if t.Blocked {
		f = append(f, p.paint(red, "blocked"))
	}
	return f
}

func level(n *int) string {
	if n == nil {
		return ""
	}
	return fmt.Sprint(*n)
}

// minutes is an estimate as the line grammar writes it: 90 → 1h30m.
func minutes(n int) string {
	switch {
	case n < 60:
		return fmt.Sprintf("%dm", n)
	case n%60 == 0:
		return fmt.Sprintf("%dh", n/60)
	}
	return fmt.Sprintf("%dh%dm", n/60, n%60)
}

// Tasks writes a page of the listing: a table, the listing's JSON
// envelope, or its compact lines; and, when more follow, how to reach them.
func (p Printer) Tasks(ctx context.Context, page TaskPage) error {
	switch p.Format {
	case FormatJSON:
		items := page.Tasks
		if items == nil {
			items = []wire.Task{}
		}
		return p.JSON(wire.TaskList{Items: items, Page: &page.Page})
	case FormatCompact:
		if len(page.Lines) == 0 {
			p.line("no tasks")
		}
		for _, l := range page.Lines {
			p.line("%s", l)
		}
	default:
		if len(page.Tasks) == 0 {
			p.line("no tasks")
		} else {
			p.table([]string{"REF", "STATUS", "PROJECT", "TITLE", "WHO", "DUE"}, p.taskRows(page.Tasks))
		}
	}
	if page.Page.HasMore && page.Page.NextCursor != nil {
		p.line("more: the same command with --cursor %s", *page.Page.NextCursor)
	}
	return nil
}

// taskRows are the table rows of ts.
func (p Printer) taskRows(ts []wire.Task) [][]cell {
	rows := make([][]cell, len(ts))
	for i, t := range ts {
		due, style := "", ""
		if t.DueAt != nil {
			var overdue bool
			due, overdue = p.When(*t.DueAt, t.DueIsAllDay, wire.Deref(t.Timezone))
			if overdue && !t.IsComplete {
				style = red
			}
		}
		rows[i] = []cell{{refText(t.Ref), dim}, {t.Status, statusStyle(t.StatusCategory)}, {t.ProjectPath, ""},
			{strings.TrimSpace(cut(t.Title, titleWidth) + " " + marks(t)), ""}, {who(t.ClaimedBy, t.Assignee), ""}, {due, style}}
	}
	return rows
}

// marks are a row's importance and tags, after its title as a captured
// line writes them (!4 #finance): what a person sorts by at a glance.
func marks(t wire.Task) string {
	var m []string
	if t.Importance != nil {
		m = append(m, "!"+level(t.Importance))
	}
	for _, tag := range t.Tags {
		m = append(m, "#"+tag)
	}
	return strings.Join(m, " ")
}

// Agenda writes the day: each list under its name, then the counts of what
// the lists leave out.
func (p Printer) Agenda(ctx context.Context, ag wire.Agenda) error {
	lists := []struct {
		name  string
		items []wire.Task
	}{{"overdue", ag.Overdue}, {"today", ag.Today}, {"occasions", ag.Occasions}, {"in progress", ag.InProgress},
		{"upcoming", ag.Upcoming}, {"blocked by others", ag.BlockedByOthers}, {"waiting", ag.Waiting}, {"unscheduled", ag.Unscheduled}}
	switch p.Format {
	case FormatJSON:
		return p.JSON(ag)
	case FormatCompact:
		// The agenda names the reader's zone: it is the one its lines use.
		for _, l := range lists {
			for i := range l.items {
				if l.items[i].ReaderZone() == "" {
					l.items[i] = l.items[i].ReadIn(ag.Timezone)
				}
			}
		}
		p.line("%s", wire.AgendaLines(ag))
		return nil
	}
	p.line("%s", p.paint(bold, "agenda for "+ag.Date+" ("+ag.Timezone+")"))
	var rows [][]cell
	for _, l := range lists {
		if len(l.items) == 0 {
			continue
		}
		rows = append(rows, []cell{{l.name + ":", bold}})
		rows = append(rows, p.taskRows(l.items)...)
	}
	if len(rows) == 0 {
		p.line("nothing on the agenda")
	} else {
		p.aligned(rows, "  ")
	}
	p.line("not listed: %d deferred, %d later, %d passed, %d paused, %d assigned elsewhere",
		ag.DeferredTotal, ag.LaterTotal, ag.PassedTotal, ag.PausedTotal, ag.AssignedElsewhereTotal)
	return nil
}
