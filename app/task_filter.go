package app

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"tend/app/when"
)

// TaskCond is one field filter of a task listing, resolved for the store:
// names are ids, times are instants, durations are minutes.
type TaskCond struct {
	Field string    // a key of TaskFilterFields
	Op    string    // "=", "<", "<=", ">", ">=", "in", "set" or "unset"
	Time  time.Time // the bound of a time comparison
	Int   int       // the bound of a number comparison
	IDs   []string  // the ids of "=" and "in" on names (empty: matches nothing)

	finished bool // it names finished work: a completion time, a status in a finished category
}

// filterKind is what a filtered field holds, which decides its operators
// and how its values are read.
type filterKind int

const (
	kindTime   filterKind = iota // a date or a relative word
	kindScale                    // importance and urgency, 1 to 5
	kindMinute                   // a duration or a number of minutes
	kindName                     // names of accounts, projects, statuses, tags, types or tasks
	kindPerson                   // usernames of the people touching or answered to, without .is
)

type filterField struct {
	kind     filterKind
	nullable bool // .is set / .is unset apply
}

// TaskFilterFields are the fields a task listing filters with an operator
// suffixed after a dot (due_at.gte, assignee.in, tag.is); docs/api.md lists
// them with their operators.
var TaskFilterFields = map[string]filterField{
	"claimed_at": {kindTime, true}, "completed_at": {kindTime, true}, "content_updated_at": {kindTime, false},
	"created_at": {kindTime, false}, "due_at": {kindTime, true}, "snoozed_until": {kindTime, true},
	"starts_at": {kindTime, true}, "updated_at": {kindTime, false}, "touched_at": {kindTime, true},
	"estimate_minutes": {kindMinute, true}, "importance": {kindScale, true}, "urgency": {kindScale, true},
	"assignee": {kindName, true}, "claimed_by": {kindName, true}, "created_by": {kindName, true},
	"parent": {kindName, true}, "project": {kindName, false}, "status": {kindName, false},
	"tag": {kindName, true}, "type": {kindName, false}, "under": {kindName, false}, "ref": {kindName, false},
	"answers_to": {kindPerson, false}, "touched_by": {kindPerson, false},
}

// listingNames are the task listing's own single-value parameters that a
// filter object may also carry (TaskListQuery reads them by name).
var listingNames = []string{"assignee", "claimed_by", "deferred", "include_completed", "parent", "project", "q", "status", "status_category", "tag", "type"}

// IsTaskFieldFilter reports whether a query parameter of the task listing
// is a field filter (TaskListQuery.Filter): any name with a dot, and the
// fields not read as listing parameters of their own.
func IsTaskFieldFilter(name string) bool {
	if strings.Contains(name, ".") {
		return true
	}
	_, ok := TaskFilterFields[name]
	return ok && !slices.Contains(listingNames, name)
}

// IsTaskFilterKey reports whether a key of a filter object (service_list)
// selects tasks: a field filter or one of the listing's own filters.
func IsTaskFilterKey(name string) bool {
	return IsTaskFieldFilter(name) || slices.Contains(listingNames, name)
}

// TaskFilterKeys lists, sorted, the bare keys a filter object may carry:
// the filtered fields and the listing's own filters. Operators follow a
// field after a dot (due_at.gte, tag.in, assignee.is).
func TaskFilterKeys() []string {
	keys := slices.Clone(listingNames)
	for k := range TaskFilterFields {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// opsOf lists the operators of a field kind; "" is the bare key.
func opsOf(f filterField) []string {
	var ops []string
	switch f.kind {
	case kindTime:
		ops = []string{"gt", "gte", "lt", "lte"}
	case kindScale, kindMinute:
		ops = []string{"", "gt", "gte", "lt", "lte"}
	case kindName, kindPerson:
		ops = []string{"", "in"}
	}
	if f.nullable {
		ops = append(ops, "is")
	}
	return ops
}

// splitFilterKey reads "due_at.gte" into its field and operator, refusing
// an unknown field or an operator the field does not take as the key
// written at loc.
func splitFilterKey(key, loc string) (string, string, filterField, error) {
	name, op, _ := strings.Cut(key, ".")
	f, ok := TaskFilterFields[name]
	if !ok {
		fields := slices.Sorted(maps.Keys(TaskFilterFields))
		return "", "", f, Invalidf(loc, "no task field %q to filter on%s; fields: %s", name, DidYouMean(name, fields), strings.Join(fields, ", "))
	}
	ops := opsOf(f)
	if !slices.Contains(ops, op) {
		var words []string
		for _, o := range ops {
			if o == "" {
				words = append(words, name)
			} else {
				words = append(words, name+"."+o)
			}
		}
		return "", "", f, Invalidf(loc, "%s does not take %q; write %s", name, key, strings.Join(words, ", "))
	}
	return name, op, f, nil
}

// checkFilterKeys refuses every unknown key or operator before the
// listing opens a transaction.
func checkFilterKeys(filter map[string]string, l Locator) error {
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(filter)) {
		if _, _, _, err := splitFilterKey(k, l.at(k)); err != nil {
			errs = append(errs, err)
		}
	}
	return joinErrors(errs...)
}

// reachesFinished reports whether the field filters ask for finished work
// (a completion time, or a status in a finished category), which, like naming a finished status, lifts the
// listing's default of open work only.
func reachesFinished(conds []TaskCond) bool {
	return slices.ContainsFunc(conds, func(c TaskCond) bool { return c.finished })
}

// filterCompare maps the written operators to the store's.
var filterCompare = map[string]string{"": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}

// fieldFilters resolves the listing's field filters into store conditions.
// Times are read in the reader's zone at the moment at (the walk's start,
// which its cursors carry, so a relative word means the same on every
// page); names resolve as the single filters do. Every refusal is
// reported, not only the first, naming the key where l says it was written.
func fieldFilters(ctx context.Context, tx Tx, sc *scope, filter map[string]string, l Locator, at time.Time) ([]TaskCond, error) {
	if len(filter) == 0 {
		return nil, nil
	}
	zone, err := readerZone(ctx, tx, sc.acc.actor.User, &sc.ws.Workspace)
	if err != nil {
		return nil, err
	}
	var out []TaskCond
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(filter)) {
		c, err := fieldFilter(ctx, tx, sc, key, l.at(key), filter[key], zone.Loc, at)
		if CodeOf(err) == CodeInternal {
			return nil, err
		}
		errs = append(errs, err)
		out = append(out, c)
	}
	return out, joinErrors(errs...)
}

// fieldFilter resolves the filter key=val, written at ref.
func fieldFilter(ctx context.Context, tx Tx, sc *scope, key, ref, val string, loc *time.Location, at time.Time) (TaskCond, error) {
	name, op, f, err := splitFilterKey(key, ref)
	if err != nil {
		return TaskCond{}, err
	}
	val = strings.TrimSpace(val)
	c := TaskCond{Field: name, Op: filterCompare[op], finished: name == "completed_at" && (op != "is" || val == "set")}
	switch {
	case op == "is":
		if val != "set" && val != "unset" {
			return c, Invalidf(ref, "%s is set or unset", key)
		}
		c.Op = val
		return c, nil
	case f.kind == kindTime:
		return timeCond(c, op, key, ref, val, at, loc)
	case f.kind == kindScale:
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > 5 {
			return c, Invalidf(ref, "%s takes a whole number from 1 to 5", name)
		}
		c.Int = n
		return c, nil
	case f.kind == kindMinute:
		n, err := when.ParseDuration(val)
		if err != nil {
			return c, Invalidf(ref, "%s takes a duration (2h, 1h30m) or minutes (90): %v", name, err)
		}
		c.Int = n
		return c, nil
	}
	c.Op = "in"
	var names []string
	for _, n := range strings.Split(val, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 || (op == "" && len(names) > 1) {
		return c, Invalidf(ref, "%s takes one name; %s.in takes several separated by commas", name, name)
	}
	c.IDs = []string{}
	for _, n := range names {
		if name == "status" {
			st, err := statusFor(ctx, tx, sc.ws.Workspace.ID, "task", n, ref)
			if err != nil {
				return c, err
			}
			c.IDs, c.finished = append(c.IDs, st.ID), c.finished || isFinished(st.Category)
			continue
		}
		ids, err := filterIDs(ctx, tx, sc, name, n, ref)
		if err != nil {
			return c, err
		}
		c.IDs = append(c.IDs, ids...)
	}
	return c, nil
}

// timeCond bounds a time field by a moment. A day compares by whole days:
// lt is before it starts, lte up to its end, gt after its end, gte from
// its start.
func timeCond(c TaskCond, op, key, ref, val string, now time.Time, loc *time.Location) (TaskCond, error) {
	m, err := when.ParseTime(val, now, loc)
	if err != nil {
		// when reads only instants whose year stays in 1..9999 in UTC
		// too; a well-formed instant past that is out of range, not
		// unreadable.
		if inst, perr := time.Parse(time.RFC3339, strings.ToUpper(val)); perr == nil {
			return c, checkInstant(ref, &inst)
		}
		return c, Invalidf(ref, "%s takes a time: an RFC 3339 instant, a date, or words like tomorrow, -7d or next week: %v", key, err)
	}
	start, end := m.Time, m.Time
	if m.AllDay {
		d := m.Time.In(loc)
		end = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc).Add(-time.Millisecond)
	}
	if err := joinErrors(checkInstant(ref, &start), checkInstant(ref, &end)); err != nil {
		return c, err
	}
	c.Time = start
	if op == "gt" || op == "lte" {
		c.Time = end
	}
	return c, nil
}

// filterIDs resolves one name of a field filter to the ids it selects,
// through the reader's scope: a project or task the reader cannot see
// answers as one that does not exist; a tag that does not exist selects
// nothing, as the tag filter does.
func filterIDs(ctx context.Context, tx Tx, sc *scope, field, name, ref string) ([]string, error) {
	switch field {
	case "project":
		return readableSubtree(sc, name, ref)
	case "type":
		it, err := itemTypeFor(ctx, tx, sc.ws.Workspace.ID, "task", name, ref)
		return []string{it.ID}, err
	case "tag":
		id, none, err := tagFilter(ctx, tx, sc, name)
		if none || err != nil {
			return nil, err
		}
		return []string{id}, nil
	case "parent", "under", "ref":
		p, err := findTaskIn(ctx, tx, sc, strings.TrimPrefix(name, "#"))
		if err != nil {
			return nil, bodyRef(err, ref, "no such task: "+name)
		}
		return []string{p.ID}, nil
	}
	id, err := accountFilter(ctx, tx, sc, name, ref)
	return []string{id}, err
}

// fieldFilterPrint is the canonical text of the field filters for a cursor's
// fingerprint: the values as written, so a relative word is the same
// filter on every page (resolved at the walk's start, see walkStart).
func fieldFilterPrint(filter map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(filter)) {
		b.WriteString(k + "=" + filter[k] + "\x1e")
	}
	return b.String()
}
