package from

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"tend/app"
)

// The fields of beads' types.Issue, Dependency and Comment tend keeps or
// reports (internal/types/types.go in steveyegge/beads).
type (
	beadsIssue struct {
		ID                 string            `json:"id"`
		Title              string            `json:"title"`
		Description        string            `json:"description"`
		Design             string            `json:"design"`
		AcceptanceCriteria string            `json:"acceptance_criteria"`
		Notes              string            `json:"notes"`
		Status             string            `json:"status"`
		Priority           *int              `json:"priority"`
		IssueType          string            `json:"issue_type"`
		Assignee           string            `json:"assignee"`
		EstimatedMinutes   *int              `json:"estimated_minutes"`
		CloseReason        string            `json:"close_reason"`
		DueAt              *time.Time        `json:"due_at"`
		DeferUntil         *time.Time        `json:"defer_until"`
		Labels             []string          `json:"labels"`
		Dependencies       []beadsDependency `json:"dependencies"`
		Comments           []beadsComment    `json:"comments"`
	}
	beadsDependency struct {
		IssueID     string `json:"issue_id"`
		DependsOnID string `json:"depends_on_id"`
		Type        string `json:"type"`
	}
	beadsComment struct {
		ID        json.RawMessage `json:"id"` // a string; an integer before beads 1.0
		Author    string          `json:"author"`
		Text      string          `json:"text"`
		CreatedAt time.Time       `json:"created_at"`
	}
)

// beadsStatus is where each beads status goes: a tend status key or category.
var beadsStatus = map[string]string{"": "", "open": "", "in_progress": "in_progress", "blocked": "blocked", "deferred": "",
	"closed": "done", "pinned": "", "hooked": "in_progress"}

// beadsTypes are the issue types tend has task types for; the others
// (epic, story, spike, milestone, decision, ...) are kept as a tag.
var beadsTypes = map[string]bool{"task": true, "bug": true, "feature": true, "chore": true}

// Beads reads a beads database as `bd` writes it to .beads/issues.jsonl:
// one issue a line, with its labels, dependencies and comments. Issues
// become tasks of one project (named by the ids' prefix, "bd" for
// bd-a1b2); status and priority map to tend's; blocks dependencies become
// blocks links, parent-child ones subtasks, related and discovered-from
// ones links of those kinds. The file may hold at most max bytes
// (DefaultMaxSize): its lines are kept as tasks.
func Beads(r io.Reader, max int64) (app.Migration, error) {
	m := app.Migration{Source: "beads"}
	p := app.MigratedProject{Where: "line 1"}
	sc := bufio.NewScanner(Capped(r, max))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	line := 0
	seen := map[string]int{}
	var deps []struct {
		beadsDependency
		where string
	}
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d", line)
		var is beadsIssue
		if err := errors.Join(json.Unmarshal(b, &is), uniqueKeys(b)); err != nil {
			return app.Migration{}, lineJSONError(where, err)
		}
		if is.ID == "" || strings.TrimSpace(is.Title) == "" {
			return app.Migration{}, app.Errorf(app.CodeInvalid, "%s: an issue needs an id and a title", where)
		}
		if first, ok := seen[is.ID]; ok {
			return app.Migration{}, app.Errorf(app.CodeInvalid, "%s: issue %s is on line %d already", where, is.ID, first)
		}
		seen[is.ID] = line
		if p.ExternalID == "" {
			p.ExternalID, _, _ = strings.Cut(is.ID, "-")
			p.Title = p.ExternalID
		}
		// A "#12" in beads is free text (an episode, another tracker's
		// issue), never one of tend's items: bd#12 where ids begin bd-.
		t, skip := beadsTask(&m, is, where, p.ExternalID)
		if skip {
			continue
		}
		p.Tasks = append(p.Tasks, t)
		for _, d := range is.Dependencies {
			deps = append(deps, struct {
				beadsDependency
				where string
			}{d, where})
		}
	}
	if err := sc.Err(); app.CodeOf(err) == app.CodeTooLarge {
		return app.Migration{}, err
	} else if err != nil {
		return app.Migration{}, app.Errorf(app.CodeInvalid, "line %d: %v", line+1, err)
	}
	if p.ExternalID == "" {
		return app.Migration{}, app.Errorf(app.CodeInvalid, "the file holds no issue: .beads/issues.jsonl has one JSON object a line")
	}
	byID := map[string]*app.MigratedTask{}
	for i := range p.Tasks {
		byID[p.Tasks[i].ExternalID] = &p.Tasks[i]
	}
	for _, d := range deps {
		beadsDependencyOf(&m, byID, d.beadsDependency, d.where)
	}
	m.Projects = []app.MigratedProject{p}
	return m, nil
}

// beadsTask maps one issue, writing each "#12" of its text as refs#12;
// skip is set for what is not work (messages, events, deleted issues).
func beadsTask(m *app.Migration, is beadsIssue, where, refs string) (app.MigratedTask, bool) {
	switch {
	case is.Status == "tombstone":
		return app.MigratedTask{}, true
	case is.IssueType == "message" || is.IssueType == "event":
		m.Unmapped = append(m.Unmapped, app.Unmapped{Where: where, What: is.ID, Why: "a " + is.IssueType + ", not work: left out"})
		return app.MigratedTask{}, true
	}
	t := app.MigratedTask{ExternalID: is.ID, Where: where + " (" + is.ID + ")", Title: refsAs(strings.TrimSpace(is.Title), refs), Tags: is.Labels,
		Assignee: is.Assignee, EstimateMinutes: is.EstimatedMinutes}
	if is.DueAt != nil {
		due := is.DueAt.UTC()
		t.Due = &due
	}
	var parts []string
	for _, s := range []struct{ head, text string }{{"", is.Description}, {"## Design", is.Design},
		{"## Acceptance criteria", is.AcceptanceCriteria}, {"## Notes", is.Notes}, {"## Closed", is.CloseReason}} {
		if strings.TrimSpace(s.text) == "" {
			continue
		}
		if s.head != "" {
			parts = append(parts, s.head)
		}
		parts = append(parts, strings.TrimSpace(s.text))
	}
	t.Description = refsAs(strings.Join(parts, "\n\n"), refs)
	status, ok := beadsStatus[is.Status]
	if !ok {
		m.Unmapped = append(m.Unmapped, app.Unmapped{Where: t.Where, What: is.Status, Why: "a status tend has no match for: the default status"})
	}
	t.Status = status
	if is.Status == "deferred" && is.DeferUntil == nil {
		t.Tags = append(t.Tags, "deferred")
	}
	if is.DeferUntil != nil {
		m.Unmapped = append(m.Unmapped, app.Unmapped{Where: t.Where, What: is.DeferUntil.UTC().Format(time.RFC3339),
			Why: "defer_until: defer the task in tend (PATCH defer) after the import"})
	}
	if is.Priority != nil && *is.Priority >= 0 && *is.Priority <= 4 {
		imp := 5 - *is.Priority // P0, the most critical, is importance 5
		t.Importance = &imp
	}
	switch {
	case is.IssueType == "":
	case beadsTypes[is.IssueType]:
		t.Type = is.IssueType
	default:
		t.Tags = append(t.Tags, is.IssueType)
	}
	for i, c := range is.Comments {
		id := strings.Trim(string(c.ID), `"`)
		if id == "" {
			id = fmt.Sprint(i + 1)
		}
		mc := app.MigratedComment{ExternalID: is.ID + "/" + id, Where: fmt.Sprintf("%s, comment %s", t.Where, id), Author: c.Author, Body: refsAs(c.Text, refs)}
		if !c.CreatedAt.IsZero() {
			at := c.CreatedAt.UTC()
			mc.At = &at
		}
		t.Comments = append(t.Comments, mc)
	}
	return t, false
}

// beadsDependencyOf maps one dependency: issue_id depends on depends_on_id.
func beadsDependencyOf(m *app.Migration, byID map[string]*app.MigratedTask, d beadsDependency, where string) {
	switch d.Type {
	case "blocks", "":
		m.Links = append(m.Links, app.MigratedLink{From: d.DependsOnID, To: d.IssueID, Type: "blocks", Where: where})
	case "related":
		m.Links = append(m.Links, app.MigratedLink{From: d.IssueID, To: d.DependsOnID, Type: "relates_to", Where: where})
	case "discovered-from":
		m.Links = append(m.Links, app.MigratedLink{From: d.IssueID, To: d.DependsOnID, Type: "discovered_from", Where: where})
	case "parent-child":
		if child := byID[d.IssueID]; child != nil && child.Parent == "" {
			child.Parent = d.DependsOnID
		} else {
			m.Unmapped = append(m.Unmapped, app.Unmapped{Where: where, What: d.IssueID + " → " + d.DependsOnID, Why: "a second parent: a tend task has one"})
		}
	default:
		m.Unmapped = append(m.Unmapped, app.Unmapped{Where: where, What: d.Type, Why: "a dependency kind tend has no link type for: left out"})
	}
}

// lineJSONError names what in a line of JSON Lines does not decode.
func lineJSONError(where string, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var de *duplicateKeyError
	switch {
	case errors.As(err, &de):
		return app.Errorf(app.CodeInvalid, "%s: %v", where, de)
	case errors.As(err, &te):
		return app.Errorf(app.CodeInvalid, "%s: %s holds %s where the format has %s", where, te.Field, te.Value, te.Type)
	case errors.As(err, &se):
		return app.Errorf(app.CodeInvalid, "%s: not JSON: %v (at character %d)", where, se, se.Offset)
	}
	return app.Errorf(app.CodeInvalid, "%s: %v", where, err)
}
