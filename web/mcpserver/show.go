package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// showBodyChars is where service_show cuts a long description or body;
// `from` continues from a character offset. docs/agent.md states it.
const showBodyChars = 1200

type showArgs struct {
	Ref       refArg `json:"ref" jsonschema:"the item's ref (42 or \"#42\") or id"`
	From      int    `json:"from,omitempty" jsonschema:"continue a cut body from this character"`
	History   bool   `json:"history,omitempty" jsonschema:"every change, newest first"`
	Tree      bool   `json:"tree,omitempty" jsonschema:"what follows it through blocking and preceding links"`
	Workspace string `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

// showOut is service_show's structuredContent. The task's description or
// the document's body holds at most showBodyChars characters from body_from;
// body_next is where to continue, null when nothing is left.
type showOut struct {
	Kind               string              `json:"kind"`
	Task               *wire.Task          `json:"task,omitempty"`
	Document           *wire.Document      `json:"document,omitempty"`
	BodyFrom           int                 `json:"body_from"`
	BodyNext           *int                `json:"body_next"`
	BodyLength         int                 `json:"body_length"`
	Links              []wire.Link         `json:"links"`
	Governing          []wire.Governing    `json:"governing"`
	Subtasks           []taskItemJSON      `json:"subtasks"`
	SubtasksMore       bool                `json:"subtasks_more"`
	Comments           []wire.Comment      `json:"comments"`
	CommentsTotal      int                 `json:"comments_total"`
	Verifications      []wire.Verification `json:"verifications"`
	VerificationsTotal int                 `json:"verifications_total"`
	History            []wire.Event        `json:"history,omitempty"`
	HistoryMore        bool                `json:"history_more,omitempty"`
	Tree               []wire.Beneath      `json:"tree,omitempty"`

	// subtasks are the subtasks' whole records, for the text's lines.
	subtasks []wire.Task
}

func (m *toolbox) toolShow(ctx context.Context, a app.Actor, in showArgs) (string, showOut, error) {
	if in.From < 0 {
		return "", showOut{}, app.Invalidf("arguments.from", "from is a character offset, 0 or more")
	}
	it, err := m.s.app.ShowItem(ctx, a, in.Workspace, strings.TrimPrefix(string(in.Ref), "#"), app.ShowQuery{History: in.History, Tree: in.Tree})
	if err != nil {
		return "", showOut{}, argError(err)
	}
	out := newShowOut(it)
	var b strings.Builder
	body := ""
	if it.Kind == "document" {
		d := wire.NewDocument(it.Document)
		body = it.Document.Body
		fmt.Fprintf(&b, "#%d %s · %s · %s · %s · version %d\n", d.Ref, d.Type, d.Status, d.ProjectPath, d.Title, d.Version)
		out.Document = &d
		out.Document.Body = cutBody(body, in.From, &out)
	} else {
		t := wire.NewTask(it.Task)
		body = it.Task.Description
		fmt.Fprintf(&b, "#%d %s · %s · %s · %s · version %d\n", t.Ref, t.Type, t.Status, t.ProjectPath, t.Title, t.Version)
		b.WriteString(taskFacts(t))
		out.Task = &t
		out.Task.Description = cutBody(body, in.From, &out)
	}
	if part := bodyPart(body, out); part != "" {
		b.WriteString(part)
	}
	writeShowSections(&b, out)
	return strings.TrimRight(b.String(), "\n"), out, nil
}

func newShowOut(it app.ItemShow) showOut {
	out := showOut{Kind: it.Kind, Links: []wire.Link{}, Governing: []wire.Governing{}, Subtasks: []taskItemJSON{}, SubtasksMore: it.SubtasksMore,
		Comments: []wire.Comment{}, CommentsTotal: it.CommentsTotal, Verifications: []wire.Verification{},
		VerificationsTotal: it.VerificationsTotal, HistoryMore: it.HistoryMore}
	for _, l := range it.Links {
		out.Links = append(out.Links, wire.NewLink(l))
	}
	for _, g := range it.Governing {
		out.Governing = append(out.Governing, wire.Governing{Document: wire.NewLinkEnd(g.Document), LinkType: g.LinkType})
	}
	out.subtasks = wire.NewTasks(it.Subtasks)
	out.Subtasks = taskItems(out.subtasks)
	for _, c := range it.Comments {
		out.Comments = append(out.Comments, wire.NewComment(c))
	}
	for _, v := range it.Verifications {
		out.Verifications = append(out.Verifications, wire.NewVerification(v))
	}
	for _, e := range it.History {
		out.History = append(out.History, wire.NewEvent(e))
	}
	for _, t := range it.Tree {
		out.Tree = append(out.Tree, wire.Beneath{Depth: t.Depth, Item: wire.NewLinkEnd(t.Item), Stopped: wire.OrNull(t.Stopped)})
	}
	return out
}

// cutBody keeps showBodyChars characters of body from `from` and notes
// where the next part starts.
func cutBody(body string, from int, out *showOut) *string {
	r := []rune(body)
	out.BodyLength, out.BodyFrom = len(r), min(from, len(r))
	end := min(out.BodyFrom+showBodyChars, len(r))
	if end < len(r) {
		out.BodyNext = &end
	}
	return wire.OrNull(string(r[out.BodyFrom:end]))
}

func bodyPart(body string, out showOut) string {
	r := []rune(body)
	if len(r) == 0 {
		return ""
	}
	end := len(r)
	if out.BodyNext != nil {
		end = *out.BodyNext
	}
	part := "\n" + string(r[out.BodyFrom:end]) + "\n"
	if out.BodyNext != nil {
		part += fmt.Sprintf("[characters %d-%d of %d; continue with from: %d]\n", out.BodyFrom, end, len(r), end)
	}
	return part
}

// taskFacts is the line of who holds a task and when it is due.
func taskFacts(t wire.Task) string {
	var f []string
	if t.ClaimedBy != nil && t.ClaimExpiresAt != nil {
		f = append(f, "claimed by "+*t.ClaimedBy+" until "+*t.ClaimExpiresAt)
	}
	if t.Assignee != nil {
		f = append(f, "assigned to "+*t.Assignee)
	}
	if t.DueAt != nil {
		f = append(f, "due "+wire.DueOf(t))
	}
	if t.Importance != nil || t.Urgency != nil {
		f = append(f, fmt.Sprintf("!%s/%s", intOr(t.Importance), intOr(t.Urgency)))
	}
	if t.Blocked {
		f = append(f, "blocked")
	}
	if len(t.Tags) > 0 {
		f = append(f, "#"+strings.Join(t.Tags, " #"))
	}
	if len(f) == 0 {
		return ""
	}
	return strings.Join(f, " · ") + "\n"
}

func intOr(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

func writeShowSections(b *strings.Builder, out showOut) {
	section := func(title string, rows [][]string, note string) {
		if len(rows) == 0 {
			return
		}
		b.WriteString("\n" + title + ":\n  " + strings.Join(wire.AlignRows(rows), "\n  ") + "\n" + note)
	}
	var rows [][]string
	for _, l := range out.Links {
		rows = append(rows, []string{l.Label, "#" + wire.Itoa64(l.Other.Ref), l.Other.Status, l.Other.Title})
	}
	section("links", rows, "")
	rows = nil
	for _, g := range out.Governing {
		rows = append(rows, []string{"#" + wire.Itoa64(g.Document.Ref), g.Document.Type, g.Document.Title})
	}
	section("governed by (read these first)", rows, "")
	rows = nil
	for _, t := range out.subtasks {
		rows = append(rows, wire.TaskLine(t))
	}
	section("subtasks", rows, moreNote(out.SubtasksMore, len(rows), "service_list filter {\"parent\": \"<ref>\"}"))
	rows = nil
	for _, c := range out.Comments {
		rows = append(rows, []string{c.CreatedAt, wire.Deref(c.Author), quoteLine(c.Body, 120)})
	}
	section(fmt.Sprintf("comments (last %d of %d)", len(out.Comments), out.CommentsTotal), rows, "")
	rows = nil
	for _, v := range out.Verifications {
		verdict := "failed"
		if v.Passed {
			verdict = "passed"
		}
		rows = append(rows, []string{v.RanAt, wire.Deref(v.Actor), verdict, wire.Deref(v.Summary)})
	}
	section(fmt.Sprintf("verifications (last %d of %d)", len(out.Verifications), out.VerificationsTotal), rows, "")
	rows = nil
	for _, e := range out.History {
		rows = append(rows, []string{"seq " + wire.Itoa64(e.Seq), e.CreatedAt, e.Action})
	}
	section("history (newest first)", rows, moreNote(out.HistoryMore, len(rows), "GET /v1/tasks/<ref>/events through service_call_api pages the rest"))
	rows = nil
	for _, t := range out.Tree {
		rows = append(rows, []string{strings.Repeat("  ", max(0, t.Depth-1)) + "#" + wire.Itoa64(t.Item.Ref), t.Item.Status, t.Item.Title, wire.Deref(t.Stopped)})
	}
	section("tree", rows, "")
}
