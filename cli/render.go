package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"tend/web/wire"
)

// The output forms a command prints in.
const (
	FormatHuman   = ""        // aligned tables, relative dates, colour on a terminal
	FormatJSON    = "json"    // the API's own JSON shapes, one document
	FormatCompact = "compact" // one aligned line per item, as MCP and format=compact give them
)

// Printer writes what a command answers, in the form asked for. People get
// dates relative to Now in Zone ("tomorrow 09:00", "in 3 days"); the JSON
// and compact forms carry what the API and MCP carry, whatever the clock.
type Printer struct {
	W      io.Writer
	Format string
	Now    time.Time
	Zone   *time.Location
	Colour bool
	// C answers the reader's zone when a compact line needs it (see ReadIn).
	C Client
}

// JSON writes v as the API writes it: one document, then a newline.
func (p Printer) JSON(v any) error { return json.NewEncoder(p.W).Encode(v) }

func (p Printer) line(format string, args ...any) {
	fmt.Fprintf(p.W, format+"\n", args...)
}

// ANSI styles, written only when Colour is set.
const (
	bold   = "1"
	dim    = "2"
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
)

// paint wraps s in the style when colour is on.
func (p Printer) paint(style, s string) string {
	if !p.Colour || style == "" || s == "" {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// cell is one cell of a table: its text and the style it is painted in.
type cell struct{ text, style string }

// table writes rows under header, each column as wide as its widest cell,
// two spaces apart.
func (p Printer) table(header []string, rows [][]cell) {
	head := make([]cell, len(header))
	for i, h := range header {
		head[i] = cell{h, bold}
	}
	p.aligned(append([][]cell{head}, rows...), "")
}

// aligned writes rows with each column as wide as its widest cell, two
// spaces apart, after indent. Widths are counted on the text, before any
// colour. A row of one cell is a heading: written alone, unindented, and
// no part of the widths.
func (p Printer) aligned(rows [][]cell, indent string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if len(r) < 2 {
				break
			}
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], runeLen(c.text))
		}
	}
	for _, r := range rows {
		if len(r) < 2 {
			p.line("%s", p.paint(r[0].style, r[0].text))
			continue
		}
		last := len(r) - 1
		for last > 0 && r[last].text == "" {
			last--
		}
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r[:last+1] {
			b.WriteString(p.paint(c.style, c.text))
			if i < last {
				b.WriteString(strings.Repeat(" ", widths[i]-runeLen(c.text)+2))
			}
		}
		p.line("%s", b.String())
	}
}

func runeLen(s string) int { return len([]rune(s)) }

// cut shortens s to n characters, marking the cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// When is a due as a person at this terminal reads it, relative to Now in
// Zone: "today", "tomorrow", "in 3 days", "2 days ago", a date further out;
// a timed due adds its time ("tomorrow 09:00", "friday 17:00"). An all-day
// due is its date in the zone it was written in. overdue says whether it
// has passed.
func (p Printer) When(stamp string, allDay bool, itemZone string) (text string, overdue bool) {
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return stamp, false
	}
	now := p.Now.In(p.Zone)
	today := civil(now)
	if allDay {
		loc := p.Zone
		if itemZone != "" {
			if l, err := time.LoadLocation(itemZone); err == nil {
				loc = l
			}
		}
		day := civil(at.In(loc))
		n := daysBetween(today, day)
		return relDay(n, day), n < 0
	}
	local := at.In(p.Zone)
	day := civil(local)
	n := daysBetween(today, day)
	rel := relDay(n, day)
	if n > 1 && n < 7 {
		rel = strings.ToLower(local.Weekday().String()) // "friday 17:00" reads better than "in 3 days 17:00"
	}
	return rel + " " + local.Format("15:04"), at.Before(p.Now)
}

// civil is t's calendar date, as midnight UTC so that days subtract exactly.
func civil(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func daysBetween(from, to time.Time) int { return int(to.Sub(from).Hours() / 24) }

func relDay(n int, day time.Time) string {
	switch {
	case n == 0:
		return "today"
	case n == 1:
		return "tomorrow"
	case n == -1:
		return "yesterday"
	case n > 1 && n < 7:
		return fmt.Sprintf("in %d days", n)
	case n < -1 && n > -7:
		return fmt.Sprintf("%d days ago", -n)
	}
	return day.Format(time.DateOnly)
}

// readIn sets the reader's zone on tasks decoded without it (ReadIn).
func (p Printer) readIn(ctx context.Context, ts []wire.Task) ([]wire.Task, error) {
	if p.C == nil {
		return ts, nil
	}
	return ReadIn(ctx, p.C, ts)
}

// compactTasks writes one aligned compact line per task, or "no " + none.
func (p Printer) compactTasks(ctx context.Context, ts []wire.Task, none string) error {
	ts, err := p.readIn(ctx, ts)
	if err != nil {
		return err
	}
	p.line("%s", wire.TaskLines(ts, none))
	return nil
}

// statusStyle paints a status by its category.
func statusStyle(category string) string {
	switch category {
	case "in_progress":
		return yellow
	case "done":
		return green
	case "cancelled":
		return dim
	}
	return ""
}

// refText is a ref as people write it.
func refText(ref int64) string { return "#" + wire.Itoa64(ref) }

// who is who has a task: its claimer, else its assignee.
func who(claimedBy, assignee *string) string {
	switch {
	case claimedBy != nil:
		return "@" + *claimedBy + " (claimed)"
	case assignee != nil:
		return "@" + *assignee
	}
	return ""
}

// lines writes a list the API answers whole as wholeList does, and in the
// table form one line an item, its fields two spaces apart.
func lines[T any](p Printer, items []T, noun string, line func(T) []string) error {
	if done, err := wholeList(p, items, noun, line); done {
		return err
	}
	for _, it := range items {
		p.line("%s", strings.Join(line(it), "  "))
	}
	return nil
}

// linesOf is the printer of a list that lines writes.
func linesOf[T any](noun string, line func(T) []string) func(Printer, []T) error {
	return func(p Printer, items []T) error { return lines(p, items, noun, line) }
}

// tableOf writes a list the API answers whole as wholeList does, or else
// as a table under headers, with row making an item's cells.
func tableOf[T any](p Printer, items []T, noun string, line func(T) []string, headers []string, row func(T) []cell) error {
	if done, err := wholeList(p, items, noun, line); done {
		return err
	}
	rows := make([][]cell, len(items))
	for i, it := range items {
		rows[i] = row(it)
	}
	p.table(headers, rows)
	return nil
}

// wholeList writes a list the API answers whole: as JSON, in its envelope;
// in the compact form, one aligned line an item, made by line; or, when it
// is empty, "no " and noun. It answers whether it wrote the list, and when
// it did not the caller writes the table.
func wholeList[T any](p Printer, items []T, noun string, line func(T) []string) (bool, error) {
	switch p.Format {
	case FormatJSON:
		if items == nil {
			items = []T{}
		}
		return true, p.JSON(wire.List{Items: items, Page: wire.Whole()})
	case FormatCompact:
		lines := make([][]string, len(items))
		for i, it := range items {
			lines[i] = line(it)
		}
		for _, l := range wire.AlignRows(lines) {
			p.line("%s", l)
		}
		return true, nil
	}
	if len(items) == 0 {
		p.line("no %s", noun)
		return true, nil
	}
	return false, nil
}
