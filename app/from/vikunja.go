package from

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"tend/app"
)

// The records of Vikunja's data.json (its models.ProjectWithTasksAndBuckets,
// TaskWithComments and TaskComment), only the fields tend keeps or reports.
type (
	vikProject struct {
		ID              int64        `json:"id"`
		Title           string       `json:"title"`
		Description     string       `json:"description"`
		Identifier      string       `json:"identifier"`
		ParentProjectID *int64       `json:"parent_project_id"`
		Created         time.Time    `json:"created"`
		IsArchived      bool         `json:"is_archived"`
		ChildProjects   []vikProject `json:"child_projects"`
		Tasks           []vikTask    `json:"tasks"`
		Buckets         []struct {
			Title string `json:"title"`
		} `json:"buckets"`
	}
	vikTask struct {
		ID           int64                    `json:"id"`
		Title        string                   `json:"title"`
		Description  string                   `json:"description"`
		Done         bool                     `json:"done"`
		Created      time.Time                `json:"created"`
		DueDate      time.Time                `json:"due_date"`
		StartDate    time.Time                `json:"start_date"`
		EndDate      time.Time                `json:"end_date"`
		RepeatAfter  int64                    `json:"repeat_after"`
		RepeatMode   int                      `json:"repeat_mode"`
		Priority     int                      `json:"priority"`
		PercentDone  float64                  `json:"percent_done"`
		Labels       []struct{ Title string } `json:"labels"`
		Assignees    []vikUser                `json:"assignees"`
		RelatedTasks map[string][]struct {
			ID      int64     `json:"id"`
			Created time.Time `json:"created"`
		} `json:"related_tasks"`
		Attachments   []json.RawMessage `json:"attachments"`
		Reminders     []json.RawMessage `json:"reminders"`
		ReminderDates []json.RawMessage `json:"reminder_dates"`
		Comments      []vikComment      `json:"comments"`
	}
	vikUser struct {
		Username string `json:"username"`
		Name     string `json:"name"`
	}
	vikComment struct {
		ID      int64     `json:"id"`
		Comment string    `json:"comment"`
		Author  *vikUser  `json:"author"`
		Created time.Time `json:"created"`
	}
)

// vikLinks is how Vikunja's relation kinds become links: each relation is
// stored from both tasks, so only one direction of each is read, and a
// subtask becomes a subtask within one project, and a has_subtask link
// (a link type the import adds) across two: tend files a subtask in its
// parent's project.
var vikLinks = map[string]string{
	"blocking":    "blocks",
	"precedes":    "precedes",
	"duplicateof": "duplicates",
	"related":     "relates_to",
	"copiedfrom":  "copied_from",
}

// vikRefs is what a "#12" of Vikunja's text is written as: vikunja#12.
// Vikunja numbers a project's tasks #1, #2, ...: none is tend's item #12.
const vikRefs = "vikunja"

// vikMirrors are the relation kinds read from the other task's side.
var vikMirrors = []string{"blocked", "follows", "duplicates", "copiedto", "parenttask"}

// Vikunja reads the archive Vikunja's "Export your data" makes (the zip,
// or the data.json in it): its projects with their child projects, tasks
// with labels, assignees, priority, done, due, start and repeat settings
// and comments, and the relations between tasks. Neither the file nor the
// data.json it unpacks may hold more than max bytes (DefaultMaxSize).
func Vikunja(r io.Reader, max int64) (app.Migration, error) {
	data, extra, err := vikunjaData(r, max)
	if err != nil {
		return app.Migration{}, err
	}
	var projects []vikProject
	if err := errors.Join(json.Unmarshal(data, &projects), uniqueKeys(data)); err != nil {
		return app.Migration{}, jsonError("data.json", data, err)
	}
	v := &vikunja{m: app.Migration{Source: "vikunja", Unmapped: extra}, tasks: map[int64]string{}, projects: map[int64]string{},
		projectOf: map[string]string{}}
	var flat []vikProject
	var walk func(ps []vikProject, parent int64)
	walk = func(ps []vikProject, parent int64) {
		for _, p := range ps {
			if p.ParentProjectID == nil || *p.ParentProjectID == 0 {
				p.ParentProjectID = &parent
			}
			flat = append(flat, p)
			walk(p.ChildProjects, p.ID)
		}
	}
	walk(projects, 0)
	if err := vikunjaUnique(flat); err != nil {
		return app.Migration{}, err
	}
	for _, p := range parentsBefore(flat) {
		v.project(p)
	}
	v.relations(flat)
	return v.m, nil
}

// vikunjaUnique refuses a project or task id that appears twice: each
// is what a later import finds the first by.
func vikunjaUnique(ps []vikProject) error {
	projects, tasks := map[int64]bool{}, map[int64]bool{}
	for _, p := range ps {
		if projects[p.ID] {
			return app.Errorf(app.CodeInvalid, "data.json: project %d is in it twice", p.ID)
		}
		projects[p.ID] = true
		for _, t := range p.Tasks {
			if tasks[t.ID] {
				return app.Errorf(app.CodeInvalid, "data.json: task %d is in it twice", t.ID)
			}
			tasks[t.ID] = true
		}
	}
	return nil
}

// vikunjaData finds data.json, in a zip or as it is, and reports what else
// the archive holds that tend leaves out. Neither the file nor data.json
// unpacked may hold more than max bytes: a zip of a megabyte can unpack to
// gigabytes.
func vikunjaData(r io.Reader, max int64) ([]byte, []app.Unmapped, error) {
	b, err := io.ReadAll(Capped(r, max))
	if err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return b, nil, nil
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil, app.Errorf(app.CodeInvalid, "the archive does not open as a zip: %v", err)
	}
	var data []byte
	var extra []app.Unmapped
	files := 0
	for _, f := range z.File {
		switch {
		case f.Name == "data.json":
			if data, err = zipEntry(f, max); err != nil {
				return nil, nil, err
			}
		case f.Name == "filters.json" && f.UncompressedSize64 > 2:
			extra = append(extra, app.Unmapped{Where: "filters.json", What: "saved filters", Why: "tend's listings take their filters in the query: left out"})
		case strings.HasPrefix(f.Name, "files/"):
			files++
		}
	}
	if data == nil {
		return nil, nil, app.Errorf(app.CodeInvalid, "the archive holds no data.json: it is not a Vikunja export")
	}
	if files > 0 {
		extra = append(extra, app.Unmapped{Where: "files/", What: fmt.Sprintf("files: %d", files), Why: "tend keeps no attachments or backgrounds: left out"})
	}
	return data, extra, nil
}

// zipEntry unpacks data.json, refusing it past max bytes: by the size its
// header declares first, and then by what it really unpacks to, since the
// header is the file's word only.
func zipEntry(f *zip.File, max int64) ([]byte, error) {
	const what = "data.json in the archive"
	if f.UncompressedSize64 > uint64(max) {
		return nil, tooLarge(what, max)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, app.Errorf(app.CodeInvalid, "%s does not open: %v", what, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(capReader(rc, max, what))
	if app.CodeOf(err) == app.CodeTooLarge {
		return nil, err
	}
	if err != nil {
		return nil, app.Errorf(app.CodeInvalid, "%s does not read: %v", what, err)
	}
	return data, nil
}

// parentsBefore orders projects so that each comes after its parent; a
// project in a cycle of parents goes in at the top.
func parentsBefore(ps []vikProject) []vikProject {
	byID := map[int64]bool{}
	for _, p := range ps {
		byID[p.ID] = true
	}
	out := make([]vikProject, 0, len(ps))
	placed := make([]bool, len(ps))
	done := map[int64]bool{}
	for len(out) < len(ps) {
		moved := false
		for i, p := range ps {
			parent := *p.ParentProjectID
			if !placed[i] && (parent == 0 || !byID[parent] || done[parent]) {
				out, placed[i], done[p.ID], moved = append(out, p), true, true, true
			}
		}
		for i := range ps {
			if !moved && !placed[i] {
				zero := int64(0)
				p := ps[i]
				p.ParentProjectID = &zero
				out, placed[i], done[p.ID], moved = append(out, p), true, true, true
			}
		}
	}
	return out
}

// vikunja is one export being read.
type vikunja struct {
	m app.Migration
	// tasks and projects are the ids (vikID) of the file's by Vikunja's;
	// projectOf is the project of each task, both by their ids here.
	tasks, projects map[int64]string
	projectOf       map[string]string
	inbox           bool // a project is the Inbox already
}

// vikID is the id a Vikunja record keeps in tend: its number and when it
// was created. Every Vikunja numbers its records from 1, so a number
// alone would let a second instance's export overwrite what the first
// one's import wrote; the time it was made tells them apart, and stays
// the same in every export of that instance.
func vikID(id int64, created time.Time) string {
	if created.IsZero() {
		return strconv.FormatInt(id, 10)
	}
	return strconv.FormatInt(id, 10) + "@" + created.UTC().Format(time.RFC3339)
}

func (v *vikunja) unmapped(where, what, why string, args ...any) {
	v.m.Unmapped = append(v.m.Unmapped, app.Unmapped{Where: where, What: what, Why: fmt.Sprintf(why, args...)})
}

func (v *vikunja) project(p vikProject) {
	where := fmt.Sprintf("project %d", p.ID)
	mp := app.MigratedProject{ExternalID: vikID(p.ID, p.Created), Where: where, Key: p.Identifier, Title: strings.TrimSpace(p.Title),
		Description: htmlText(p.Description)}
	if mp.Title == "" {
		mp.Title = fmt.Sprintf("Untitled %d", p.ID)
	}
	if parent, ok := v.projects[*p.ParentProjectID]; ok {
		mp.Parent = parent
	}
	// Vikunja makes every account an "Inbox" first, its default project.
	if mp.Parent == "" && strings.EqualFold(mp.Title, "Inbox") && !v.inbox {
		mp.Inbox, v.inbox = true, true
	}
	v.projects[p.ID] = mp.ExternalID
	if p.IsArchived {
		v.unmapped(where, mp.Title, "archived in Vikunja: imported as a project in use")
	}
	if len(p.Buckets) > 1 {
		v.unmapped(where, fmt.Sprintf("kanban buckets: %d", len(p.Buckets)), "a task's status says where it is: left out")
	}
	for _, t := range p.Tasks {
		mt := v.task(t)
		v.projectOf[mt.ExternalID] = mp.ExternalID
		mp.Tasks = append(mp.Tasks, mt)
	}
	v.m.Projects = append(v.m.Projects, mp)
}

func (v *vikunja) task(t vikTask) app.MigratedTask {
	where := fmt.Sprintf("task %d", t.ID)
	mt := app.MigratedTask{ExternalID: vikID(t.ID, t.Created), Where: where, Title: refsAs(strings.TrimSpace(t.Title), vikRefs),
		Description: refsAs(htmlText(t.Description), vikRefs)}
	if mt.Title == "" {
		mt.Title = fmt.Sprintf("Untitled %d", t.ID)
	}
	v.tasks[t.ID] = mt.ExternalID
	if t.Done {
		mt.Status = "done"
	}
	if t.Priority >= 1 && t.Priority <= 5 {
		p := t.Priority
		mt.Importance = &p
	}
	if !t.DueDate.IsZero() {
		d := t.DueDate.UTC()
		mt.Due = &d
	}
	if !t.StartDate.IsZero() {
		s := t.StartDate.UTC()
		mt.Starts = &s
	}
	if !t.EndDate.IsZero() {
		v.unmapped(where, t.EndDate.UTC().Format(time.RFC3339), "an end date: tend's tasks have a due date and a start: left out")
	}
	mt.Repeat = v.repeat(t, where)
	for _, l := range t.Labels {
		mt.Tags = append(mt.Tags, l.Title)
	}
	var more []app.Unmapped
	mt.Assignee, more = firstAssignee(where, t.Assignees, func(u vikUser) string { return u.Username })
	v.m.Unmapped = append(v.m.Unmapped, more...)
	if n := len(t.Reminders) + len(t.ReminderDates); n > 0 {
		v.unmapped(where, fmt.Sprintf("reminders: %d", n), "tend sends no reminders: left out")
	}
	if n := len(t.Attachments); n > 0 {
		v.unmapped(where, fmt.Sprintf("attachments: %d", n), "tend keeps no files: left out")
	}
	for _, c := range t.Comments {
		mc := app.MigratedComment{ExternalID: vikID(c.ID, c.Created), Where: fmt.Sprintf("comment %d", c.ID), Body: refsAs(htmlText(c.Comment), vikRefs)}
		if c.Author != nil {
			mc.Author = c.Author.Username
		}
		if !c.Created.IsZero() {
			at := c.Created.UTC()
			mc.At = &at
		}
		mt.Comments = append(mt.Comments, mc)
	}
	return mt
}

// repeat writes Vikunja's repeat settings as a repeat phrase: repeat_after
// seconds (whole days or weeks), monthly (mode 1), from the day it is done
// (mode 2), at the due date's time of day: a repeat without a time is one
// of whole days, and would move 08:00 every 3 days to no time at all.
func (v *vikunja) repeat(t vikTask, where string) string {
	bang, at := "", ""
	if t.RepeatMode == 2 {
		bang = "!"
	}
	// Vikunja writes its times at the offset its users read them in.
	if h, m, _ := t.DueDate.Clock(); !t.DueDate.IsZero() && (h != 0 || m != 0) {
		at = fmt.Sprintf(" at %d:%02d", h, m)
	}
	switch {
	case t.RepeatMode == 1:
		return "every month" + at
	case t.RepeatAfter <= 0:
		return ""
	case t.RepeatAfter%(7*86400) == 0:
		return every(bang, t.RepeatAfter/(7*86400), "week") + at
	case t.RepeatAfter%86400 == 0:
		return every(bang, t.RepeatAfter/86400, "day") + at
	}
	v.unmapped(where, fmt.Sprintf("every %d seconds", t.RepeatAfter), "tend repeats by whole days: the task does not repeat")
	return ""
}

// every writes a repeat phrase: "every week", "every! 3 days".
func every(bang string, n int64, unit string) string {
	if n == 1 {
		return "every" + bang + " " + unit
	}
	return fmt.Sprintf("every%s %d %ss", bang, n, unit)
}

// relations reads each relation once, from the side vikLinks names, and
// the subtasks as parents.
func (v *vikunja) relations(ps []vikProject) {
	tasks := map[string]*app.MigratedTask{}
	for i := range v.m.Projects {
		for j := range v.m.Projects[i].Tasks {
			t := &v.m.Projects[i].Tasks[j]
			tasks[t.ExternalID] = t
		}
	}
	for _, p := range ps {
		for _, t := range p.Tasks {
			kinds := make([]string, 0, len(t.RelatedTasks))
			for k := range t.RelatedTasks {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			for _, kind := range kinds {
				for _, o := range t.RelatedTasks[kind] {
					to, ok := v.tasks[o.ID]
					if !ok {
						to = vikID(o.ID, o.Created)
					}
					v.relation(tasks, t.ID, kind, o.ID, to)
				}
			}
		}
	}
}

// relation reads the relation of kind from task from to task to (toID in
// tend), both by their Vikunja numbers.
func (v *vikunja) relation(tasks map[string]*app.MigratedTask, from int64, kind string, to int64, toID string) {
	where, fromID := fmt.Sprintf("task %d", from), v.tasks[from]
	switch {
	case kind == "subtask":
		child := tasks[toID]
		switch {
		case child == nil:
			v.unmapped(where, fmt.Sprintf("subtask %d", to), "a subtask that is not in the export: left out")
		case v.projectOf[toID] != v.projectOf[fromID]:
			v.m.Links = append(v.m.Links, app.MigratedLink{From: fromID, To: toID, Type: "has_subtask", Where: where})
			v.unmapped(where, fmt.Sprintf("subtask %d", to), "in another project: a tend task's subtasks share its project, so the two are linked (has subtask) instead")
		case child.Parent != "" && child.Parent != fromID:
			v.unmapped(where, fmt.Sprintf("subtask %d", to), "task %d is a subtask of another too: a tend task has one parent", to)
		default:
			child.Parent = fromID
		}
	case kind == "related" && from > to && tasks[toID] != nil:
		// Symmetric: read from the side whose number is the lower.
	case vikLinks[kind] != "":
		v.m.Links = append(v.m.Links, app.MigratedLink{From: fromID, To: toID, Type: vikLinks[kind], Where: where})
	case slices.Contains(vikMirrors, kind):
	default:
		v.unmapped(where, kind, "a relation kind tend has no link type for: left out")
	}
}

// jsonError names where in a JSON document decoding stopped.
func jsonError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var de *duplicateKeyError
	switch {
	case errors.As(err, &se):
		return app.Errorf(app.CodeInvalid, "%s, line %d: not JSON: %v", name, lineAt(data, se.Offset), se)
	case errors.As(err, &de):
		return app.Errorf(app.CodeInvalid, "%s, line %d: %v", name, lineAt(data, de.Offset), de)
	case errors.As(err, &te):
		return app.Errorf(app.CodeInvalid, "%s, line %d: %s holds %s where the format has %s", name, lineAt(data, te.Offset), te.Field, te.Value, te.Type)
	}
	return app.Errorf(app.CodeInvalid, "%s: %v", name, err)
}

// lineAt is the line of data that byte offset falls on.
func lineAt(data []byte, offset int64) int {
	return bytes.Count(data[:min(int(offset), len(data))], []byte("\n")) + 1
}
