package dav

import (
	"bytes"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-ical"

	"tend/app"
)

// modelled are the VTODO properties tend reads into a task's fields and
// writes from them; every other property and component of a VTODO is
// kept as the client wrote it (DavRecord.Extra).
var modelled = map[string]bool{
	ical.PropUID: true, ical.PropSummary: true, ical.PropDescription: true, ical.PropStatus: true, ical.PropCompleted: true,
	ical.PropPriority: true, ical.PropDue: true, ical.PropDateTimeStart: true, ical.PropCategories: true,
	ical.PropURL: true, ical.PropLastModified: true, ical.PropDateTimeStamp: true, ical.PropSequence: true,
	ical.PropCreated: true, ical.PropRecurrenceRule: true,
}

var categoryOf = map[string]string{"NEEDS-ACTION": app.CategoryTodo, "IN-PROCESS": app.CategoryInProgress,
	"COMPLETED": app.CategoryDone, "CANCELLED": app.CategoryCancelled}

var statusOf = map[string]string{app.CategoryTodo: "NEEDS-ACTION", app.CategoryInProgress: "IN-PROCESS",
	app.CategoryDone: "COMPLETED", app.CategoryCancelled: "CANCELLED"}

// priorityOf maps importance (1-5, 5 highest) onto PRIORITY (1 highest,
// 9 lowest) and importanceOf back, so that each survives the round trip.
var priorityOf = map[int]int{5: 1, 4: 3, 3: 5, 2: 7, 1: 9}

func importanceOf(p int) int { return 5 - (p-1)/2 }

// encodeObject writes a task as a VCALENDAR holding its VTODO, with the
// lines tend keeps for it; never a METHOD, which belongs to .ics files,
// not to a CalDAV resource.
func encodeObject(o app.DavObject, publicURL, version string) ([]byte, error) {
	t := o.Task
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropProductID, "-//tend//tend "+version+"//EN")
	cal.Props.SetText(ical.PropVersion, "2.0")
	todo := ical.NewComponent(ical.CompToDo)
	p := todo.Props
	p.SetText(ical.PropUID, o.UID)
	p.SetDateTime(ical.PropDateTimeStamp, t.UpdatedAt.UTC())
	p.SetDateTime(ical.PropCreated, t.CreatedAt.UTC())
	p.SetDateTime(ical.PropLastModified, t.UpdatedAt.UTC())
	setRaw(p, ical.PropSequence, strconv.Itoa(t.Version-1))
	p.SetText(ical.PropSummary, t.Title)
	if t.Description != "" {
		p.SetText(ical.PropDescription, t.Description)
	}
	p.SetText(ical.PropStatus, statusOf[t.Status.Category])
	if t.CompletedAt != nil {
		p.SetDateTime(ical.PropCompleted, t.CompletedAt.UTC())
	}
	if t.Importance != nil {
		setRaw(p, ical.PropPriority, strconv.Itoa(priorityOf[*t.Importance]))
	}
	z := zonesOf(t)
	setWhen(p, ical.PropDue, t.DueAt, t.DueIsAllDay, z)
	setWhen(p, ical.PropDateTimeStart, t.StartsAt, t.StartsIsAllDay, z)
	writeRepeat(p, o, z)
	kept, err := keptCalendar(o.Extra)
	if err != nil {
		return nil, err
	}
	writeAlarms(todo, t, keptAlarms(kept))
	if tz := taskTimezone(t, z); tz != nil {
		cal.Children = append(cal.Children, tz)
	}
	if len(t.Tags) > 0 {
		c := ical.NewProp(ical.PropCategories)
		c.SetTextList(t.Tags)
		p.Set(c)
	}
	if o.ParentUID != "" {
		rel := ical.NewProp(ical.PropRelatedTo)
		rel.Params.Set(ical.ParamRelationshipType, "PARENT")
		rel.SetText(o.ParentUID)
		p.Add(rel)
	}
	if publicURL != "" {
		setRaw(p, ical.PropURL, strings.TrimRight(publicURL, "/")+"/v1/tasks/"+t.ID)
	}
	cal.Children = append(cal.Children, todo)
	mergeExtra(cal, todo, kept, t.IsComplete())
	var b bytes.Buffer
	err = ical.NewEncoder(&b).Encode(cal)
	return b.Bytes(), err
}

// setRaw sets a property whose value type is its default, which SetText
// would mark VALUE=TEXT.
func setRaw(p ical.Props, name, value string) {
	p.Set(&ical.Prop{Name: name, Params: ical.Params{}, Value: value})
}

// keptCalendar reads what tend keeps of a resource; nil for nothing.
func keptCalendar(extra string) (*ical.Calendar, error) {
	if extra == "" {
		return nil, nil
	}
	return parseCalendar([]byte(extra))
}

// keptAlarms are the VALARMs kept of the VTODO itself.
func keptAlarms(kept *ical.Calendar) []*ical.Component {
	if kept == nil {
		return nil
	}
	var out []*ical.Component
	for _, c := range kept.Children {
		if c.Name == keptToDo {
			out = append(out, c.Children...)
		}
	}
	return out
}

// mergeExtra adds back what a client wrote that tend does not model: the
// VTODO's own properties and subcomponents (VALARM; those a reminder's
// alarm, which writeAlarms serves, aside), and the calendar's other
// components. A done task's PERCENT-COMPLETE is 100, whatever the client
// last wrote.
func mergeExtra(cal *ical.Calendar, todo *ical.Component, kept *ical.Calendar, done bool) {
	if kept != nil {
		for _, c := range kept.Children {
			if c.Name != keptToDo {
				cal.Children = append(cal.Children, c)
				continue
			}
			for name, ps := range c.Props {
				if modelled[name] || name == ical.PropPercentComplete && done {
					continue
				}
				todo.Props[name] = append(todo.Props[name], ps...)
			}
			for _, a := range c.Children {
				if a.Props.Get(reminderMark) == nil {
					todo.Children = append(todo.Children, a)
				}
			}
		}
	}
	if done {
		setRaw(todo.Props, ical.PropPercentComplete, "100")
	}
}

// keptToDo holds, in what tend keeps, the lines of the VTODO itself: a
// component of its own name, which go-ical does not check for the
// properties a VTODO must have, and tend writes.
const keptToDo = "X-TEND-VTODO"

// decodeObject reads a PUT's body: one VTODO (with its overrides, kept as
// written), into tend's fields and the lines it keeps.
func decodeObject(body []byte) (app.DavPut, error) {
	cal, err := parseCalendar(body)
	if err != nil {
		return app.DavPut{}, refuse("c:valid-calendar-data", "the body is no iCalendar object: %v", err)
	}
	if n := countProps(cal.Component); n > maxProps {
		return app.DavPut{}, refuse("c:max-resource-size", "a task holds at most %d properties; this one has %d", maxProps, n)
	}
	var todo *ical.Component
	rest := ical.NewCalendar()
	rest.Props.SetText(ical.PropProductID, "-//tend//kept//EN")
	rest.Props.SetText(ical.PropVersion, "2.0")
	keep := ical.NewComponent(keptToDo)
	rest.Children = append(rest.Children, keep)
	var overrides []*ical.Component
	for _, c := range cal.Children {
		switch {
		case c.Name == ical.CompTimezone:
			// A TZID is read by its name, from Go's zone data: what a
			// client's VTIMEZONE says of it is not kept.
		case c.Name != ical.CompToDo:
			return app.DavPut{}, refuse("c:supported-calendar-component", "a task collection holds VTODO components only, not %s", c.Name)
		case c.Props.Get(ical.PropRecurrenceID) != nil:
			overrides = append(overrides, c)
		case todo == nil:
			todo = c
		default:
			rest.Children = append(rest.Children, c)
		}
	}
	if todo == nil {
		return app.DavPut{}, refuse("c:valid-calendar-object-resource", "the body holds no VTODO")
	}
	in, err := readTodo(todo)
	if err != nil {
		return in, err
	}
	in.Reminders = readAlarms(todo, in)
	read, err := readRepeat(&in, todo, overrides)
	if err != nil {
		return in, err
	}
	if !read {
		rest.Children = append(rest.Children, overrides...)
	}
	for name, ps := range todo.Props {
		if modelled[name] || (name == ical.PropRelatedTo && in.ParentUID != "" && len(ps) == 1) {
			continue
		}
		keep.Props[name] = ps
	}
	keep.Children = todo.Children
	if in.Extra, err = keptLines(rest, keep); err != nil || !read {
		return in, err
	}
	in.NextExtra, err = nextExtra(rest, keep)
	return in, err
}

// keptLines is the text of what tend keeps of a resource: rest, whose
// first component is keep, the VTODO's own lines; "" when there are none.
func keptLines(rest *ical.Calendar, keep *ical.Component) (string, error) {
	if len(keep.Props) == 0 && len(keep.Children) == 0 && len(rest.Children) == 1 {
		return "", nil
	}
	var b bytes.Buffer
	if err := ical.NewEncoder(&b).Encode(rest); err != nil {
		return "", refuse("c:valid-calendar-data", "the VTODO's other properties could not be kept: %v", err)
	}
	return b.String(), nil
}

// maxProps bounds the properties of one resource: a task app writes tens,
// and every one kept is written back on every read.
const maxProps = 1000

// countProps counts the properties of c and every component in it.
func countProps(c *ical.Component) int {
	n := 0
	for _, ps := range c.Props {
		n += len(ps)
	}
	for _, child := range c.Children {
		n += countProps(child)
	}
	return n
}

// readTodo reads the fields tend models from a VTODO.
func readTodo(c *ical.Component) (app.DavPut, error) {
	var in app.DavPut
	// A comma left unescaped in a one-valued text is part of it, as people
	// write it editing a vdir's file by hand: go-ical's Text would keep only
	// what comes before it.
	text := func(name string) string {
		p := c.Props.Get(name)
		if p == nil {
			return ""
		}
		l, _ := p.TextList()
		return dropCR(strings.Join(l, ","))
	}
	in.UID, in.Title, in.Description = text(ical.PropUID), text(ical.PropSummary), text(ical.PropDescription)
	if st := strings.ToUpper(text(ical.PropStatus)); st != "" {
		in.Category = categoryOf[st]
	} else if c.Props.Get(ical.PropCompleted) != nil {
		in.Category = app.CategoryDone
	}
	if p := c.Props.Get(ical.PropCompleted); p != nil {
		at, err := p.DateTime(time.UTC)
		if err != nil {
			return in, refuse("c:valid-calendar-data", "COMPLETED is a date-time in UTC")
		}
		in.Completed = &at
	}
	if p := c.Props.Get(ical.PropPriority); p != nil {
		n, err := p.Int()
		if err != nil || n < 0 || n > 9 {
			return in, refuse("c:valid-calendar-data", "PRIORITY is a number from 0 to 9")
		}
		if n > 0 {
			imp := importanceOf(n)
			in.Importance = &imp
		}
	}
	var err error
	if in.Due, in.Timezone, err = readWhen(c, ical.PropDue); err != nil {
		return in, err
	}
	var tz string
	if in.Start, tz, err = readWhen(c, ical.PropDateTimeStart); err != nil {
		return in, err
	}
	if in.Timezone == "" {
		in.Timezone = tz
	}
	for _, p := range c.Props.Values(ical.PropCategories) {
		l, err := p.TextList()
		if err != nil {
			return in, refuse("c:valid-calendar-data", "CATEGORIES does not parse")
		}
		for _, s := range l {
			if s = strings.TrimSpace(s); s != "" {
				in.Tags = append(in.Tags, s)
			}
		}
	}
	for _, p := range c.Props.Values(ical.PropRelatedTo) {
		if rel := strings.ToUpper(p.Params.Get(ical.ParamRelationshipType)); rel == "" || rel == "PARENT" {
			in.ParentUID = dropCR(p.Value)
		}
	}
	return in, nil
}

// dropCR removes the bare carriage returns a line of a body may hold: no
// iCalendar text carries one, and the writer could not write it back.
func dropCR(s string) string {
	return strings.ReplaceAll(s, "\r", "")
}

// readWhen reads a DUE or DTSTART: a date, a floating time, or a time in
// UTC or a TZID's zone (which it answers, for the task's zone).
func readWhen(c *ical.Component, name string) (*app.DavTime, string, error) {
	p := c.Props.Get(name)
	if p == nil {
		return nil, "", nil
	}
	tzid := p.Params.Get(ical.PropTimezoneID)
	if tzid != "" {
		zone := zoneNamed(tzid)
		if zone == "" {
			return nil, "", refuse("c:valid-calendar-data", "%s is in the time zone %q, which is not a zone name tend knows (such as Europe/Berlin)", name, tzid)
		}
		if zone != tzid {
			named := *p
			named.Params = maps.Clone(p.Params)
			named.Params.Set(ical.PropTimezoneID, zone)
			p, tzid = &named, zone
		}
	}
	at, err := p.DateTime(time.UTC)
	if err != nil {
		return nil, "", refuse("c:valid-calendar-data", "%s does not parse as a date or date-time", name)
	}
	d := &app.DavTime{At: at, AllDay: p.ValueType() == ical.ValueDate || len(p.Value) == 8}
	d.Floating = !d.AllDay && tzid == "" && !strings.HasSuffix(p.Value, "Z")
	return d, tzid, nil
}

// parseCalendar reads iCalendar text. go-ical's decoder indexes past the
// end of some malformed lines (FuzzDecodeObject found "0;0="), so its panic
// is a refusal of the body here, not a crash of the request.
func parseCalendar(b []byte) (cal *ical.Calendar, err error) {
	defer func() {
		if p := recover(); p != nil {
			cal, err = nil, fmt.Errorf("malformed content line")
		}
	}()
	return ical.NewDecoder(bytes.NewReader(b)).Decode()
}
