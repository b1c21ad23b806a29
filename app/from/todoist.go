package from

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"tend/app"
)

// Todoist reads a project Todoist exported as CSV ("Export as a template"),
// in the columns of its documentation: TYPE (task, section, note, or meta
// for the view), CONTENT (the title, with @labels), DESCRIPTION, PRIORITY
// (1 is p1, the highest; empty is p1 too), INDENT (1 at the top, 2 for a
// subtask...), AUTHOR and RESPONSIBLE ("Name (id)"), DATE (a date in
// words, perhaps repeating), DATE_LANG, TIMEZONE, DURATION with
// DURATION_UNIT, and, in newer exports, DEADLINE. The file's name is the
// project's (Todoist writes one project a file). Sections become projects
// inside it; notes, comments on the task above. A CSV row holds no id, so
// a task's id is its path: section, parent tasks and title. The file may
// hold at most max bytes (DefaultMaxSize): its rows are kept as tasks.
func Todoist(r io.Reader, project string, max int64) (app.Migration, error) {
	cr := csv.NewReader(stripBOM(Capped(r, max)))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return app.Migration{}, app.Errorf(app.CodeInvalid, "the file is empty; a Todoist CSV begins with its header (TYPE,CONTENT,...)")
	}
	if err != nil {
		return app.Migration{}, csvError(err)
	}
	col, err := todoistColumns(header)
	if err != nil {
		return app.Migration{}, err
	}
	t := &todoist{m: app.Migration{Source: "todoist"}, col: col, ids: map[string]int{}}
	t.m.Projects = []app.MigratedProject{{ExternalID: project, Where: "line 1", Title: project}}
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return app.Migration{}, csvError(err)
		}
		line, _ := cr.FieldPos(0)
		if err := t.row(row, fmt.Sprintf("line %d", line)); err != nil {
			return app.Migration{}, err
		}
	}
	return t.m, nil
}

// todoistColumns finds the columns by their names in the header.
func todoistColumns(header []string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToUpper(strings.TrimSpace(h))
		if _, twice := col[name]; twice && name != "" {
			return nil, app.Errorf(app.CodeInvalid, "line 1: the header names %s twice: which of the two holds it is not clear", name)
		}
		col[name] = i
	}
	for _, need := range []string{"TYPE", "CONTENT"} {
		if _, ok := col[need]; !ok {
			return nil, app.Errorf(app.CodeInvalid, "line 1: no %s column: this is not a Todoist CSV (its header is TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,...)", need)
		}
	}
	return col, nil
}

// todoist is one Todoist file being read.
type todoist struct {
	m   app.Migration
	col map[string]int
	// cur is the project rows go into: the file's, or its latest section.
	cur int
	// path holds the task at each indent of the current project (index 0
	// for INDENT 1), as indices into its Tasks, to find a subtask's parent.
	path []int
	ids  map[string]int // task paths seen, to tell apart tasks of one title
	last *app.MigratedTask
}

// cell is the text of a column, bytes that are not UTF-8 as U+FFFD: a CSV
// carries no encoding, and encoding/json makes them so of the JSON files
// the other readers read and of the API's request bodies.
func (t *todoist) cell(row []string, name string) string {
	if i, ok := t.col[name]; ok && i < len(row) {
		return strings.ToValidUTF8(strings.TrimSpace(row[i]), "\uFFFD")
	}
	return ""
}

func (t *todoist) row(row []string, where string) error {
	typ := t.cell(row, "TYPE")
	switch typ {
	case "":
		for _, c := range row {
			if strings.TrimSpace(c) != "" {
				return app.Errorf(app.CodeInvalid, "%s: a row without a TYPE (task, section or note)", where)
			}
		}
		return nil // the blank rows Todoist writes between items
	case "meta":
		return nil // the project's view (list or board)
	case "section":
		return t.section(row, where)
	case "task":
		return t.task(row, where)
	case "note":
		if t.last == nil {
			t.m.Unmapped = append(t.m.Unmapped, app.Unmapped{Where: where, What: "note", Why: "a note before any task: Todoist's project comments have no place in tend: left out"})
			return nil
		}
		author, _ := person(t.cell(row, "AUTHOR"))
		t.last.Comments = append(t.last.Comments, app.MigratedComment{ExternalID: fmt.Sprintf("%s#%d", t.last.ExternalID, len(t.last.Comments)+1),
			Where: where, Author: author, Body: refsAs(t.cell(row, "CONTENT"), todoistRefs)})
		return nil
	}
	return app.Errorf(app.CodeInvalid, "%s: TYPE %q is not one of task, section or note", where, typ)
}

func (t *todoist) section(row []string, where string) error {
	name := t.cell(row, "CONTENT")
	if name == "" {
		return app.Errorf(app.CodeInvalid, "%s: a section without a name", where)
	}
	root := t.m.Projects[0]
	t.m.Projects = append(t.m.Projects, app.MigratedProject{ExternalID: root.ExternalID + "/" + name, Where: where, Title: name,
		Parent: root.ExternalID})
	t.cur, t.path, t.last = len(t.m.Projects)-1, nil, nil
	return nil
}

var labelRe = regexp.MustCompile(`(^|\s)@([^\s@]+)`)

// todoistRefs is what a "#12" of a Todoist text is written as: todoist#12,
// so that it never reads as tend's item #12.
const todoistRefs = "todoist"

func (t *todoist) task(row []string, where string) error {
	content := t.cell(row, "CONTENT")
	var labels []string
	for _, m := range labelRe.FindAllStringSubmatch(content, -1) {
		labels = append(labels, m[2])
	}
	title := strings.Join(strings.Fields(labelRe.ReplaceAllString(content, " ")), " ")
	if title == "" {
		return app.Errorf(app.CodeInvalid, "%s: a task without a title (CONTENT holds only labels or nothing)", where)
	}
	indent, err := t.number(row, "INDENT", where, 1, 1, 100)
	if err != nil {
		return err
	}
	if indent > len(t.path)+1 {
		return app.Errorf(app.CodeInvalid, "%s: INDENT %d under a task of INDENT %d: a subtask follows its parent", where, indent, len(t.path))
	}
	prio, err := t.number(row, "PRIORITY", where, 1, 1, 4)
	if err != nil {
		return err
	}
	p := &t.m.Projects[t.cur]
	task := app.MigratedTask{Where: where, Title: refsAs(title, todoistRefs), Description: refsAs(t.cell(row, "DESCRIPTION"), todoistRefs), Tags: labels,
		When: t.cell(row, "DATE"), Timezone: t.cell(row, "TIMEZONE")}
	if prio < 4 { // p1 is importance 5, p3 is 3; p4 is Todoist's "no priority"
		imp := 6 - prio
		task.Importance = &imp
	}
	id := p.ExternalID
	t.path = t.path[:indent-1]
	if len(t.path) > 0 {
		parent := p.Tasks[t.path[len(t.path)-1]]
		task.Parent, id = parent.ExternalID, parent.ExternalID
	}
	id += "/" + title
	t.ids[id]++
	if n := t.ids[id]; n > 1 {
		id += "#" + strconv.Itoa(n)
	}
	task.ExternalID = id
	task.Assignee, _ = person(t.cell(row, "RESPONSIBLE"))
	if lang := t.cell(row, "DATE_LANG"); lang != "" && lang != "en" && task.When != "" {
		t.unmapped(where, lang, "dates written in another language than English may not read: see the report on its date")
	}
	t.duration(&task, row, where)
	t.deadline(&task, row, where)
	p.Tasks = append(p.Tasks, task)
	t.path = append(t.path, len(p.Tasks)-1)
	t.last = &p.Tasks[len(p.Tasks)-1]
	return nil
}

// duration reads DURATION and DURATION_UNIT into an estimate.
func (t *todoist) duration(task *app.MigratedTask, row []string, where string) {
	d, unit := t.cell(row, "DURATION"), t.cell(row, "DURATION_UNIT")
	if d == "" {
		return
	}
	n, err := strconv.Atoi(d)
	switch {
	case err != nil || n < 1:
		t.unmapped(where, d, "DURATION is not a whole number of %ss: no estimate", unit)
	case unit == "minute" || unit == "":
		task.EstimateMinutes = &n
	default:
		t.unmapped(where, d+" "+unit, "a duration in %ss is a span on the calendar, not an estimate of work: left out", unit)
	}
}

// deadline reads DEADLINE: the due date when DATE gives none.
func (t *todoist) deadline(task *app.MigratedTask, row []string, where string) {
	dl := t.cell(row, "DEADLINE")
	switch {
	case dl == "":
	case task.When == "":
		task.When = dl
	default:
		t.unmapped(where, dl, "a deadline beside a date: the date is the due date, the deadline kept in the description")
		task.Description = strings.TrimSpace(task.Description + "\n\ntodoist deadline: " + dl)
	}
}

func (t *todoist) unmapped(where, what, why string, args ...any) {
	t.m.Unmapped = append(t.m.Unmapped, app.Unmapped{Where: where, What: what, Why: fmt.Sprintf(why, args...)})
}

// number reads a whole number column within [min, max]; empty is def.
func (t *todoist) number(row []string, name, where string, def, low, high int) (int, error) {
	s := t.cell(row, name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < low || n > high {
		return 0, app.Errorf(app.CodeInvalid, "%s: %s %q is not a whole number from %d to %d", where, name, s, low, high)
	}
	return n, nil
}

var personRe = regexp.MustCompile(`^(.*?)\s*\((\d+)\)$`)

// person splits Todoist's "Name (id)" into the name and the id.
func person(s string) (name, id string) {
	if m := personRe.FindStringSubmatch(s); m != nil {
		return m[1], m[2]
	}
	return s, ""
}

// csvError names the line a CSV file stops making sense at.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return app.Errorf(app.CodeInvalid, "line %d: not CSV: %v", pe.StartLine, pe.Err)
	}
	return err
}

// stripBOM drops the byte order mark spreadsheet programs put first.
func stripBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		_, _ = br.Discard(3)
	}
	return br
}
