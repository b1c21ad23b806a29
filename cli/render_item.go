package cli

import (
	"context"
	"strings"

	"tend/web/wire"
)

// Show writes a task or document with what surrounds it: its facts and
// text, then its links, the governing documents in force, subtasks, the
// last comments and verifications, each a line.
func (p Printer) Show(ctx context.Context, it wire.ItemShow) error {
	if p.Format == FormatJSON {
		return p.JSON(it)
	}
	text := ""
	if it.Document != nil {
		d := *it.Document
		text = wire.Deref(d.Body)
		if p.Format == FormatCompact {
			p.line("%s", wire.AlignRows([][]string{wire.DocumentLine(d)})[0])
		} else {
			p.line("%s %s", p.paint(bold, refText(d.Ref)), d.Title)
			p.line("  %s", strings.Join([]string{d.Type, d.Status, d.ProjectPath, "version " + itoa(d.Version)}, " · "))
		}
	} else if it.Task != nil {
		t := *it.Task
		text = wire.Deref(t.Description)
		if p.Format == FormatCompact {
			if err := p.compactTasks(ctx, []wire.Task{t}, "tasks"); err != nil {
				return err
			}
		} else {
			p.line("%s %s", p.paint(bold, refText(t.Ref)), t.Title)
			p.line("  %s", strings.Join(append(p.facts(t), "version "+itoa(t.Version)), " · "))
		}
	}
	if text != "" {
		p.line("\n%s\n", strings.TrimRight(text, "\n"))
	}
	section(p, "links", len(it.Links), it.Links, func(l wire.Link) []cell {
		return []cell{{l.Label, ""}, {refText(l.Other.Ref), dim}, {l.Other.Status, statusStyle(l.Other.StatusCategory)}, {l.Other.Title, ""}}
	})
	section(p, "governing", len(it.Governing), it.Governing, func(g wire.Governing) []cell {
		return []cell{{g.LinkType, ""}, {refText(g.Document.Ref), dim}, {g.Document.Type, ""}, {g.Document.Title, ""}}
	})
	if len(it.Subtasks) > 0 {
		p.line("subtasks:")
		if p.Format == FormatCompact {
			if err := p.compactTasks(ctx, it.Subtasks, "subtasks"); err != nil {
				return err
			}
		} else {
			p.aligned(p.taskRows(it.Subtasks), "  ")
		}
	}
	section(p, "comments", it.CommentsTotal, it.Comments, func(c wire.Comment) []cell {
		return []cell{{p.stamp(c.CreatedAt), dim}, {"@" + wire.Deref(c.Author), ""}, {oneLine(c.Body), ""}}
	})
	section(p, "verifications", it.VerificationsTotal, it.Verifications, func(v wire.Verification) []cell {
		verdict, style := "failed", red
		if v.Passed {
			verdict, style = "passed", green
		}
		return []cell{{p.stamp(v.RanAt), dim}, {verdict, style}, {"@" + wire.Deref(v.Actor), ""}, {wire.Deref(v.Summary), ""},
			{wire.Deref(v.CommitSHA), dim}}
	})
	return nil
}

// section writes the heading "name (total):" and one aligned row per
// item; nothing when there are none.
func section[T any](p Printer, name string, total int, items []T, row func(T) []cell) {
	if len(items) == 0 {
		return
	}
	heading := name + ":"
	if total > len(items) {
		heading = name + " (last " + itoa(len(items)) + " of " + itoa(total) + "):"
	}
	rows := [][]cell{{{heading, bold}}}
	for _, it := range items {
		rows = append(rows, row(it))
	}
	p.aligned(rows, "  ")
}

// stamp is an instant for people: relative in human output, as the API
// writes it otherwise.
func (p Printer) stamp(s string) string {
	if p.Format == FormatCompact {
		return s
	}
	text, _ := p.When(s, false, "")
	return text
}

func oneLine(s string) string { return cut(strings.Join(strings.Fields(s), " "), 2*titleWidth) }

func itoa(n int) string { return wire.Itoa64(int64(n)) }

// Search writes the best matches of each kind, and whether more match.
func (p Printer) Search(ctx context.Context, res wire.ItemSearch) error {
	switch p.Format {
	case FormatJSON:
		return p.JSON(res)
	case FormatCompact:
		if err := p.compactTasks(ctx, res.Tasks, "tasks"); err != nil {
			return err
		}
		rows := make([][]string, len(res.Documents))
		for i, d := range res.Documents {
			rows[i] = wire.DocumentLine(d)
		}
		p.line("%s", wire.LinesOr(rows, "no documents"))
	default:
		if len(res.Tasks) == 0 {
			p.line("no tasks")
		} else {
			p.table([]string{"REF", "STATUS", "PROJECT", "TITLE", "WHO", "DUE"}, p.taskRows(res.Tasks))
		}
		if len(res.Documents) == 0 {
			p.line("no documents")
		} else {
			rows := make([][]cell, len(res.Documents))
			for i, d := range res.Documents {
				rows[i] = []cell{{refText(d.Ref), dim}, {d.Status, statusStyle(d.StatusCategory)}, {d.Type, ""}, {d.ProjectPath, ""},
					{cut(d.Title, titleWidth), ""}}
			}
			p.table([]string{"REF", "STATUS", "TYPE", "PROJECT", "TITLE"}, rows)
		}
	}
	if res.TasksMore || res.DocumentsMore {
		p.line("more match: add words, or raise --limit")
	}
	return nil
}

// Document writes a document a command made or read, with its body.
func (p Printer) Document(verb string, d wire.Document) error {
	switch p.Format {
	case FormatJSON:
		return p.JSON(d)
	case FormatCompact:
		p.line("%s", wire.AlignRows([][]string{wire.DocumentLine(d)})[0])
	default:
		head := refText(d.Ref) + " " + d.Title
		if verb != "" {
			head = verb + " " + head
		}
		p.line("%s", p.paint(bold, head))
		p.line("  %s", strings.Join([]string{d.Type, d.Status, d.ProjectPath, "version " + itoa(d.Version)}, " · "))
	}
	if verb == "" && p.Format != FormatJSON && d.Body != nil && *d.Body != "" {
		p.line("\n%s", strings.TrimRight(*d.Body, "\n"))
	}
	return nil
}

// Filed writes the document a command filed, and the links it was filed with.
func (p Printer) Filed(d wire.FiledDocument) error {
	if p.Format == FormatJSON {
		return p.JSON(d)
	}
	if err := p.Document("wrote", d.Document); err != nil {
		return err
	}
	rows := make([][]cell, len(d.Links))
	for i, l := range d.Links {
		rows[i] = []cell{{"linked", ""}, {l.Label, ""}, {refText(l.Other.Ref), dim}, {l.Other.Title, ""}}
	}
	indent := "  "
	if p.Format == FormatCompact {
		indent = ""
	}
	p.aligned(rows, indent)
	return nil
}

// Comment writes the comment a command left on ref.
func (p Printer) Comment(ref string, c wire.Comment) error {
	if p.Format == FormatJSON {
		return p.JSON(c)
	}
	p.line("commented on #%s", trimRef(ref))
	return nil
}

// Link writes the link a command made, read from ref's end.
func (p Printer) Link(ref string, l wire.Link) error {
	if p.Format == FormatJSON {
		return p.JSON(l)
	}
	p.line("#%s %s %s %s", trimRef(ref), l.Label, refText(l.Other.Ref), l.Other.Title)
	return nil
}
