package app

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Importing the same file again keeps what was changed in tend. Beside
// each task's id in the tool, an import keeps the values it read from the
// file for that task (ExternalRef.Imported). Next time, a field follows
// the file only where the file's value changed since: changed in tend and
// not in the file, tend's stays (a task completed or renamed in tend stays
// so); changed in both, tend's stays too and the report lists the field as
// a conflict. Tags merge as sets: a tag the file added since comes, a tag
// it dropped goes, and one added in tend stays. A task imported before
// tend kept these values has no record of them: each field where tend and
// the file differ is such a conflict, once.

// TaskMigrated is a task a re-import changed, or found changed on both sides.
type TaskMigrated struct {
	Ref   int64
	Title string // as it is in tend after the import
	Where string // the record of the file
	// Updated names the fields that followed the file, and each comment
	// that did ("comment " and its record).
	Updated []string
	// Conflicts are the fields changed both in tend and in the file since
	// the last import: tend's value stayed.
	Conflicts []MigrateConflict
}

// MigrateConflict is a field changed on both sides: Kept is tend's value,
// which stays, File the file's.
type MigrateConflict struct {
	Field, Kept, File string
}

// importedValues are an item's fields, each written as text so that the
// last import's, the file's and tend's compare: tags one a line (no tag
// holds a line break), numbers in decimal, "" for none.
type importedValues map[string]string

func (v importedValues) encode() string {
	b, _ := json.Marshal(map[string]string(v)) // a map of strings always encodes
	return string(b)
}

// decodeImported reads what the last import kept; ok is false when it kept
// nothing.
func decodeImported(s string) (importedValues, bool) {
	var v map[string]string
	if s == "" || json.Unmarshal([]byte(s), &v) != nil {
		return nil, false
	}
	return v, true
}

func intText(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func dueText(at *time.Time, allDay bool) string {
	if at == nil {
		return ""
	}
	s := at.UTC().Format(time.RFC3339)
	if allDay {
		s += " all day"
	}
	return s
}

// tagText is a list of tags as a set, by their folded names.
func tagText(tags []string) string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = strings.ToLower(t)
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), "\n")
}

// fileValues are the fields of in, a task as the file has it, that a
// re-import merges; due only where the import writes due dates (a task
// that does not repeat, dated by a structured date).
func (mg *migrator) fileValues(in TaskCreate, due bool) importedValues {
	v := importedValues{"title": in.Title, "description": in.Description, "tags": tagText(in.Tags), "status": in.Status,
		"importance": intText(in.Importance), "urgency": intText(in.Urgency), "estimate": intText(in.EstimateMinutes),
		"assignee": in.Assignee}
	if v["status"] == "" {
		v["status"] = mg.defaultStatusKey()
	}
	if in.Type != "" {
		v["type"] = in.Type
	}
	if due {
		v["due"] = dueText(in.DueAt, in.DueIsAllDay)
	}
	return v
}

// taskValues are the same fields of a task in tend.
func taskValues(t Task) importedValues {
	return importedValues{"title": t.Title, "description": t.Description, "tags": tagText(t.Tags), "status": t.Status.Key,
		"importance": intText(t.Importance), "urgency": intText(t.Urgency), "estimate": intText(t.EstimateMinutes),
		"assignee": t.Assignee, "type": t.Type.Key, "due": dueText(t.DueAt, t.DueIsAllDay)}
}

// follows says whether a field takes the file's value (file), or keeps
// tend's (now) and is a conflict, given what the last import read (base).
func follows(base importedValues, field, file, now string) (apply, conflict bool) {
	was, ok := base[field]
	switch {
	case file == now:
		return false, false
	case !ok:
		return false, true
	case file == was:
		return false, false
	case now == was:
		return true, false
	}
	return false, true
}

// mergeTags is tend's tags with those the file added since the last
// import (base) and without those it dropped.
func mergeTags(base, file, now []string) []string {
	has := func(list []string, t string) bool {
		return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, t) })
	}
	out := []string{}
	for _, t := range now {
		if !has(base, t) || has(file, t) {
			out = append(out, t)
		}
	}
	for _, t := range file {
		if !has(base, t) && !has(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// keep is a re-import's change to one task: what follows the file, and
// the report's entry for it.
type keep struct {
	up   TaskUpdate
	item TaskMigrated
}

// mergeTask decides, field by field, what of in (the file's task) a task
// now holding cur takes, given what the last import kept (imported).
func (mg *migrator) mergeTask(cur Task, in TaskCreate, file importedValues, imported string) keep {
	base, _ := decodeImported(imported)
	now := taskValues(cur)
	k := keep{item: TaskMigrated{Ref: cur.Ref, Title: cur.Title}}
	for _, f := range mergedFields {
		v, ok := file[f]
		if !ok {
			continue
		}
		if _, kept := base["tags"]; f == "tags" && kept {
			if merged := mergeTags(lines(base["tags"]), in.Tags, cur.Tags); tagText(merged) != now["tags"] {
				k.up.Tags = set(merged)
				k.item.Updated = append(k.item.Updated, f)
			}
			continue
		}
		apply, conflict := follows(base, f, v, now[f])
		switch {
		case conflict:
			k.item.Conflicts = append(k.item.Conflicts, MigrateConflict{Field: f, Kept: shown(f, now[f]), File: shown(f, v)})
		case apply:
			k.item.Updated = append(k.item.Updated, f)
			mergedApply[f](&k.up, in, v)
		}
	}
	return k
}

// mergedFields are the fields a re-import merges, in the report's order,
// and mergedApply how each that follows the file is written (tags merge
// as sets, in mergeTask).
var (
	mergedFields = []string{"title", "description", "status", "type", "assignee", "importance", "urgency", "estimate", "due", "tags"}
	mergedApply  = map[string]func(up *TaskUpdate, in TaskCreate, v string){
		"title":       func(up *TaskUpdate, in TaskCreate, _ string) { up.Title = set(in.Title) },
		"description": func(up *TaskUpdate, in TaskCreate, _ string) { up.Description = set(in.Description) },
		"status":      func(up *TaskUpdate, _ TaskCreate, v string) { up.Status = set(v) },
		"type":        func(up *TaskUpdate, in TaskCreate, _ string) { up.Type = set(in.Type) },
		"assignee":    func(up *TaskUpdate, in TaskCreate, _ string) { up.Assignee = set(in.Assignee) },
		"importance":  func(up *TaskUpdate, in TaskCreate, _ string) { up.Importance = setPtr(in.Importance) },
		"urgency":     func(up *TaskUpdate, in TaskCreate, _ string) { up.Urgency = setPtr(in.Urgency) },
		"estimate":    func(up *TaskUpdate, in TaskCreate, _ string) { up.EstimateMinutes = setPtr(in.EstimateMinutes) },
		"due": func(up *TaskUpdate, in TaskCreate, _ string) {
			up.DueAt, up.DueIsAllDay = setPtr(in.DueAt), set(in.DueIsAllDay)
		},
	}
)

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// shown is a field's value as the report shows it: tags separated by
// commas, a text on one line and cut at 80 characters, "none" for nothing.
func shown(field, v string) string {
	sep := " "
	if field == "tags" {
		sep = ", "
	}
	switch r := []rune(strings.ReplaceAll(v, "\n", sep)); {
	case len(r) == 0:
		return "none"
	case len(r) > 80:
		return string(r[:79]) + "…"
	default:
		return string(r)
	}
}
