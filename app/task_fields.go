package app

import (
	"context"
	"reflect"
	"strings"
	"time"
)

// Task is one piece of work, with the fields resolved for its reader.
type Task struct {
	Seq              int64
	ID               string
	WorkspaceID      string
	Ref              int64
	ProjectID        string
	ParentID         string
	Title            string
	Description      string
	TypeID           string
	StatusID         string
	Importance       *int
	Urgency          *int
	DueAt            *time.Time
	DueIsAllDay      bool
	StartsAt         *time.Time
	StartsIsAllDay   bool
	SnoozedUntil     *time.Time
	SnoozedIsAllDay  bool
	EstimateMinutes  *int
	AssigneeID       string
	ClaimedByID      string
	ClaimedAt        *time.Time
	ClaimExpiresAt   *time.Time
	RepeatRule       string // the rule's canonical text (recur.Rule.String), "" for none
	Timezone         string
	SeriesID         string // shared by the occurrences of one repeat, "" for none
	Occurrence       int    // this occurrence's number in its series, from 1
	SeriesValues     string // JSON: the series' values of fields changed for this occurrence only
	CompletedAt      *time.Time
	CreatedBy        string
	UpdatedBy        string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	ContentUpdatedAt time.Time
	DeletedAt        *time.Time
	Version          int
	Tags             []string
	Reminders        []Reminder

	// Resolved on read, for this reader.
	// ReaderZone is the reader's timezone by name (the account's, else the
	// workspace's), which a compact line shows a timed due in.
	ReaderZone            string
	Type                  ItemType
	Status                Status
	Assignee              string
	AssigneeAnswersTo     string
	AssigneeIsAgent       bool
	ClaimedBy             string
	ClaimedByAnswersTo    string
	ClaimedByIsAgent      bool
	ParentRef             *int64
	Blocked               bool
	Blocking              bool
	SubTasks              int
	SubTasksOpen          int
	PriorityScore         float64
	RecurrenceDescription string   // the repeat in words, "" for none
	Relevance             *float64 // how well the task matches q; nil without q
	ProjectKey            string   // from the scope, with ProjectPath and WorkspaceSlug
	ProjectPath           string
	WorkspaceSlug         string
}

// TaskCreate is a new task: a captured line (Text), the structured
// fields, or both. The JSON API reads it from wire.TaskCreate.
type TaskCreate struct {
	Text            string
	Title           string
	Description     string
	Project         string
	Parent          FlexRef
	Type            string
	Status          string
	Tags            []string
	Assignee        string
	Importance      *int
	Urgency         *int
	DueAt           *time.Time
	DueIsAllDay     bool
	StartsAt        *time.Time
	StartsIsAllDay  bool
	EstimateMinutes *int
	Repeat          string
	Timezone        string
	// Reminders nil takes the creator's default reminders when the task
	// has a due; an empty list takes none.
	Reminders []Reminder
}

// TaskUpdate is a change to a task: unset fields stay, null ones clear.
// The JSON API reads it from wire.TaskUpdate (PATCH /v1/tasks/{id_or_ref}).
type TaskUpdate struct {
	Title           Patch[string]
	Description     Patch[string]
	Project         Patch[string]
	Parent          Patch[FlexRef]
	Type            Patch[string]
	Status          Patch[string]
	Tags            Patch[[]string]
	Assignee        Patch[string]
	Importance      Patch[int]
	Urgency         Patch[int]
	DueAt           Patch[time.Time]
	DueIsAllDay     Patch[bool]
	StartsAt        Patch[time.Time]
	StartsIsAllDay  Patch[bool]
	SnoozedUntil    Patch[time.Time]
	SnoozedIsAllDay Patch[bool]
	EstimateMinutes Patch[int]
	Repeat          Patch[string]
	Timezone        Patch[string]
	Reminders       Patch[[]Reminder]
	AppliesTo       Patch[string]
	// Written phrases, read with when.ParseDate in the reader's zone: defer
	// sets snoozed_until ("" unhides), plan starts_at (the day one means to
	// work on it), until due_at (the deadline); "" or null clears.
	Defer           Patch[string]
	Plan            Patch[string]
	Until           Patch[string]
	ExpectedVersion *int
}

// taskField is one field of a task as a create, an update, an import, a
// repeat and the history see it: where a create and an update carry it,
// what a value sent must be, how it changes the task, whether the next
// occurrence copies it, and the words the history says a change of it in.
// taskFields holds one for each field, so that a new field is one entry
// here, not a line in each of those.
type taskField struct {
	// name is the field's JSON name: body.<name> in a refusal, its key in
	// an event's changes and in series_values.
	name string
	// in is the field in an update; nil for a field of other items the
	// history has words for (a document's body, a project's visibility).
	in func(u *TaskUpdate) patch
	// keeps is set for a field that cannot be cleared: null is refused.
	keeps bool
	// create is the field in a create; nil for one a create does not carry.
	create func(c *TaskCreate) any
	// takes is set for a field a new task takes as sent (an instant in
	// UTC); a create resolves the others by hand (draftTask).
	takes bool
	// check refuses a value sent that breaks the field's rule; nil when
	// any value will do. It may tidy the value (tags are normalised). A
	// create and an import run it too (checkCreate, taskImportChecks).
	check func(s *Service, loc string, p patch) []error
	// phrase is the written phrase that sets the field instead of an
	// instant (defer, plan, until); nil for none.
	phrase *phraseField
	// apply changes the task as the update asks and notes the change; nil
	// for a field another one applies (parent moves with project, in
	// refile) or that updateRepeat applies (repeat).
	apply func(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error
	// on is the task's own field, the value series_values keeps; nil for
	// a field held elsewhere (a repeat is the task's rule).
	on func(t *Task) any
	// series is set for a field the next occurrence copies, which a change
	// on a repeating task must say applies_to for.
	series bool
	// words say a change of the field in the history (Narrate), the
	// fields in the order of the table; alone ones only when nothing else
	// changed is said.
	words func(t Telling, c said) string
	alone bool
}

// phraseField is a written phrase that sets an instant and whether it has
// a time of day, read with when.ParseDate in the reader's zone.
type phraseField struct {
	name   string
	in     func(u *TaskUpdate) *Patch[string]
	allDay func(u *TaskUpdate) *Patch[bool]
}

// patch is a Patch of any type, as the field table handles one.
type patch interface {
	sent() bool
	null() bool
}

func (p *Patch[T]) sent() bool { return p.Set }
func (p *Patch[T]) null() bool { return p.Set && p.Null }

// taskWrite is what applying an update to one task needs and gathers.
type taskWrite struct {
	s       *Service
	ctx     context.Context
	tx      Tx
	sc      *scope
	changes map[string]any
	n       int       // pendingCount's for a refile
	job     **TaskJob // set to the job a refile leaves to the worker
	content bool      // the title or description changed
}

// taskFields are a task's fields, in the order the history says them: the
// status first, then what a person reads first of an item.
var taskFields = []taskField{
	{name: "status", in: func(u *TaskUpdate) patch { return &u.Status }, keeps: true, apply: applyStatus,
		create: func(c *TaskCreate) any { return &c.Status },
		words:  func(t Telling, c said) string { return "moved this to " + t.status(phrase(c.toS)) }},
	{name: "title", in: func(u *TaskUpdate) patch { return &u.Title }, keeps: true, series: true,
		create: func(c *TaskCreate) any { return &c.Title },
		on:     func(t *Task) any { return &t.Title }, apply: applyTitle,
		check: func(s *Service, loc string, p patch) []error {
			return []error{s.checkTitle(loc, p.(*Patch[string]).Value)}
		},
		words: func(_ Telling, c said) string { return "renamed this to “" + phrase(c.toS) + "”" }},
	{name: "type", in: func(u *TaskUpdate) patch { return &u.Type }, keeps: true, series: true,
		create: func(c *TaskCreate) any { return &c.Type },
		on:     func(t *Task) any { return &t.TypeID }, apply: applyType,
		words: func(_ Telling, c said) string { return "made this a " + strings.ReplaceAll(phrase(c.toS), "_", " ") }},
	{name: "assignee", in: func(u *TaskUpdate) patch { return &u.Assignee }, series: true,
		create: func(c *TaskCreate) any { return &c.Assignee },
		on:     func(t *Task) any { return &t.AssigneeID }, apply: applyAssignee,
		words: func(_ Telling, c said) string {
			if c.empty {
				return "unassigned " + phrase(c.fromS)
			}
			return "assigned this to " + *c.toS
		}},
	{name: "due_at", in: func(u *TaskUpdate) patch { return &u.DueAt }, series: true,
		create: func(c *TaskCreate) any { return &c.DueAt }, takes: true,
		on: func(t *Task) any { return &t.DueAt }, apply: asSent, check: checkInstantField,
		phrase: &phraseField{"until", func(u *TaskUpdate) *Patch[string] { return &u.Until },
			func(u *TaskUpdate) *Patch[bool] { return &u.DueIsAllDay }},
		words: sayWhen("set the due date to ", "removed the due date", "due_is_all_day")},
	{name: "starts_at", in: func(u *TaskUpdate) patch { return &u.StartsAt },
		create: func(c *TaskCreate) any { return &c.StartsAt }, takes: true,
		on: func(t *Task) any { return &t.StartsAt }, apply: asSent, check: checkInstantField,
		phrase: &phraseField{"plan", func(u *TaskUpdate) *Patch[string] { return &u.Plan },
			func(u *TaskUpdate) *Patch[bool] { return &u.StartsIsAllDay }},
		words: sayWhen("planned this for ", "removed the plan", "starts_is_all_day")},
	{name: "snoozed_until", in: func(u *TaskUpdate) patch { return &u.SnoozedUntil },
		on: func(t *Task) any { return &t.SnoozedUntil }, apply: asSent, check: checkInstantField,
		phrase: &phraseField{"defer", func(u *TaskUpdate) *Patch[string] { return &u.Defer },
			func(u *TaskUpdate) *Patch[bool] { return &u.SnoozedIsAllDay }},
		words: sayWhen("deferred this until ", "stopped deferring this", "snoozed_is_all_day")},
	{name: "repeat", in: func(u *TaskUpdate) patch { return &u.Repeat },
		create: func(c *TaskCreate) any { return &c.Repeat },
		words: func(_ Telling, c said) string {
			if c.empty {
				return "stopped the repeat"
			}
			return "made this repeat " + *c.toS
		}},
	{name: "tags", in: func(u *TaskUpdate) patch { return &u.Tags }, series: true,
		create: func(c *TaskCreate) any { return &c.Tags },
		on:     func(t *Task) any { return &t.Tags }, apply: applyTaskTags,
		check: func(s *Service, loc string, p patch) []error {
			tags := p.(*Patch[[]string])
			var errs []error
			tags.Value, errs = s.normalTags(loc, tags.Value)
			return errs
		},
		words: func(_ Telling, c said) string { return tagWords(c.from, c.to) }},
	{name: "reminders", in: func(u *TaskUpdate) patch { return &u.Reminders }, series: true,
		create: func(c *TaskCreate) any { return &c.Reminders },
		on:     func(t *Task) any { return &t.Reminders }, apply: applyReminders, check: checkRemindersField,
		words: func(_ Telling, c said) string {
			if v := reflect.ValueOf(c.to); !v.IsValid() || v.Kind() == reflect.Slice && v.Len() == 0 {
				return "removed the reminders"
			}
			return "set the reminders"
		}},
	{name: "importance", in: func(u *TaskUpdate) patch { return &u.Importance }, series: true,
		create: func(c *TaskCreate) any { return &c.Importance }, takes: true,
		on: func(t *Task) any { return &t.Importance }, apply: asSent, check: checkRange(1, 5, ""),
		words: sayLevel("importance")},
	{name: "urgency", in: func(u *TaskUpdate) patch { return &u.Urgency }, series: true,
		create: func(c *TaskCreate) any { return &c.Urgency }, takes: true,
		on: func(t *Task) any { return &t.Urgency }, apply: asSent, check: checkRange(1, 5, ""),
		words: sayLevel("urgency")},
	{name: "estimate_minutes", in: func(u *TaskUpdate) patch { return &u.EstimateMinutes }, series: true,
		create: func(c *TaskCreate) any { return &c.EstimateMinutes }, takes: true,
		on: func(t *Task) any { return &t.EstimateMinutes }, apply: asSent, check: checkInt((*Service).checkEstimate),
		words: func(_ Telling, c said) string {
			if c.empty {
				return "removed the estimate"
			}
			return "estimated this at " + minutes(c.to)
		}},
	{name: "description", in: func(u *TaskUpdate) patch { return &u.Description }, series: true,
		create: func(c *TaskCreate) any { return &c.Description }, takes: true,
		on: func(t *Task) any { return &t.Description }, apply: applyDescription,
		check: func(s *Service, loc string, p patch) []error {
			v := p.(*Patch[string]).Value
			return []error{s.checkText(loc, v, s.limits.MaxDescriptionLength), s.checkMentions(loc, v)}
		},
		words: func(_ Telling, c said) string {
			switch {
			case c.empty:
				return "removed the description"
			case c.fromS == nil || *c.fromS == "":
				return "wrote the description"
			}
			return "changed the description"
		}},
	{name: "body", words: func(_ Telling, c said) string {
		if m, ok := c.v.(map[string]any); ok && m["revised"] == true {
			return "revised the body"
		}
		return "wrote the body"
	}},
	{name: "project", in: func(u *TaskUpdate) patch { return &u.Project }, series: true,
		create: func(c *TaskCreate) any { return &c.Project },
		on:     func(t *Task) any { return &t.ProjectID }, apply: applyRefile,
		words: func(_ Telling, c said) string { return "filed this in " + phrase(c.toS) }},
	{name: "parent", in: func(u *TaskUpdate) patch { return &u.Parent }, series: true,
		create: func(c *TaskCreate) any { return &c.Parent },
		on:     func(t *Task) any { return &t.ParentID },
		words: func(t Telling, c said) string {
			switch {
			case t.project:
				return t.projectParent(c.to)
			case c.empty:
				return "took this out from under its parent"
			}
			return "put this under #" + *c.toS
		}},
	{name: "timezone", in: func(u *TaskUpdate) patch { return &u.Timezone }, series: true,
		create: func(c *TaskCreate) any { return &c.Timezone }, takes: true,
		on: func(t *Task) any { return &t.Timezone }, apply: asSent,
		check: func(_ *Service, loc string, p patch) []error {
			if p.null() {
				return nil
			}
			return []error{checkTimezone(loc, p.(*Patch[string]).Value)}
		},
		words: func(_ Telling, c said) string { return "set the timezone to " + phrase(c.toS) }},
	{name: "visibility", words: func(_ Telling, c said) string { return "made this " + phrase(c.toS) }},
	{name: "due_is_all_day", in: func(u *TaskUpdate) patch { return &u.DueIsAllDay }, series: true,
		create: func(c *TaskCreate) any { return &c.DueIsAllDay }, takes: true,
		on: func(t *Task) any { return &t.DueIsAllDay }, apply: asSent, words: sayAllDay("due"), alone: true},
	{name: "starts_is_all_day", in: func(u *TaskUpdate) patch { return &u.StartsIsAllDay },
		create: func(c *TaskCreate) any { return &c.StartsIsAllDay }, takes: true,
		on: func(t *Task) any { return &t.StartsIsAllDay }, apply: asSent, words: sayAllDay("start"), alone: true},
	{name: "snoozed_is_all_day", in: func(u *TaskUpdate) patch { return &u.SnoozedIsAllDay },
		on: func(t *Task) any { return &t.SnoozedIsAllDay }, apply: asSent, words: sayAllDay("deferral"), alone: true},
}

// taskFieldNamed finds a field of the table by its name.
var taskFieldNamed = func() map[string]taskField {
	m := make(map[string]taskField, len(taskFields))
	for _, f := range taskFields {
		m[f.name] = f
	}
	return m
}()

// TaskFieldClears reports whether "" means, as null does, that a field of
// a task's update (by its JSON name, or a phrase's) is to be cleared: so
// for every field but those that cannot be (title, type, status) and
// applies_to, which is no field.
func TaskFieldClears(name string) bool {
	for _, f := range taskFields {
		if f.in != nil && (f.name == name && !f.keeps || f.phrase != nil && f.phrase.name == name) {
			return true
		}
	}
	return false
}

// checkInt is a check of a whole number sent; null passes.
func checkInt(check func(s *Service, loc string, v *int) error) func(*Service, string, patch) []error {
	return func(s *Service, loc string, p patch) []error {
		if p.null() {
			return nil
		}
		return []error{check(s, loc, &p.(*Patch[int]).Value)}
	}
}

// checkRange is the check of a whole number from lo to hi, the unit said
// after them in a refusal ("" for none); null passes.
func checkRange(lo, hi int, unit string) func(*Service, string, patch) []error {
	return checkInt(func(_ *Service, loc string, v *int) error {
		if *v < lo || *v > hi {
			return Invalidf(loc, "from %d to %d%s", lo, hi, unit)
		}
		return nil
	})
}

func checkInstantField(_ *Service, loc string, p patch) []error {
	return []error{checkPatchInstant(loc, *p.(*Patch[time.Time]))}
}

// asSent stores the value sent as the task's field, null as none.
func asSent(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	switch p := f.in(u).(type) {
	case *Patch[int]:
		patchInt(w.changes, f.name, f.on(t).(**int), *p)
	case *Patch[time.Time]:
		patchTime(w.changes, f.name, f.on(t).(**time.Time), *p)
	case *Patch[bool]:
		patchBool(w.changes, f.name, f.on(t).(*bool), *p)
	case *Patch[string]:
		if field := f.on(t).(*string); p.Set && p.Value != *field {
			w.changes[f.name] = map[string]any{"from": *field, "to": p.Value}
			*field = p.Value
		}
	}
	return nil
}

func applyTitle(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if title := strings.TrimSpace(u.Title.Value); u.Title.Set && title != t.Title {
		w.changes[f.name] = map[string]any{"from": t.Title, "to": title}
		t.Title, w.content = title, true
	}
	return nil
}

func applyDescription(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if u.Description.Set && u.Description.Value != t.Description {
		w.changes[f.name] = map[string]any{"from": t.Description, "to": u.Description.Value}
		t.Description, w.content = u.Description.Value, true
	}
	return nil
}

func applyType(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if !u.Type.Set {
		return nil
	}
	it, err := itemTypeFor(w.ctx, w.tx, t.WorkspaceID, "task", u.Type.Value, "body."+f.name)
	if err != nil {
		return err
	}
	if it.ID != t.TypeID {
		w.changes[f.name] = map[string]any{"from": t.Type.Key, "to": u.Type.Value}
		t.TypeID = it.ID
	}
	return nil
}

func applyStatus(w *taskWrite, _ taskField, t *Task, u *TaskUpdate) error {
	if !u.Status.Set {
		return nil
	}
	return setTaskStatus(w.ctx, w.tx, t, u.Status.Value, w.changes)
}

func applyAssignee(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if !u.Assignee.Set {
		return nil
	}
	id := ""
	if !u.Assignee.Null && u.Assignee.Value != "" {
		m, err := workspaceMember(w.ctx, w.tx, w.sc, u.Assignee.Value, "body."+f.name)
		if err != nil {
			return err
		}
		id = m.ID
	}
	if id != t.AssigneeID {
		w.changes[f.name] = map[string]any{"from": t.Assignee, "to": u.Assignee.Value}
		t.AssigneeID = id
	}
	return nil
}

func applyTaskTags(w *taskWrite, f taskField, t *Task, u *TaskUpdate) error {
	if !u.Tags.Set {
		return nil
	}
	names := u.Tags.Value
	if u.Tags.Null {
		names = []string{}
	}
	if sameFold(names, t.Tags) {
		return nil
	}
	w.changes[f.name] = map[string]any{"from": t.Tags, "to": names}
	return applyTags(w.ctx, w.tx, w.sc.acc.actor, t.WorkspaceID, t.ProjectID, t.ID, names, w.tx.SetTaskTags)
}

// applyRefile moves the task to the project and under the parent sent,
// either or both.
func applyRefile(w *taskWrite, _ taskField, t *Task, u *TaskUpdate) error {
	if !u.Project.Set && !u.Parent.Set {
		return nil
	}
	return w.s.refile(w.ctx, w.tx, w.sc, t, u.Project, u.Parent, w.changes, w.n, w.job)
}

// copySeries copies the fields the series holds from one occurrence to the
// next.
func copySeries(dst, src *Task) {
	for _, f := range taskFields {
		if f.series {
			reflect.ValueOf(f.on(dst)).Elem().Set(reflect.ValueOf(f.on(src)).Elem())
		}
	}
}

// said is a changed field as its words see it: v is its {"from", "to"}
// pair or the value set, from and to its sides, fromS and toS those as
// text, empty whether it was cleared; all is every change of the event.
type said struct {
	v, from, to any
	fromS, toS  *string
	empty       bool
	all         map[string]any
}

// sayWhen is the words of an instant: set to a day (with its time unless
// the event's allDay field says it has none), or removed.
func sayWhen(set, removed, allDay string) func(Telling, said) string {
	return func(t Telling, c said) string {
		if c.empty {
			return removed
		}
		return set + t.day(*c.toS, c.all[allDay])
	}
}

func sayLevel(field string) func(Telling, said) string {
	return func(_ Telling, c said) string {
		if c.empty {
			return "cleared the " + field
		}
		return "set the " + field + " to " + *c.toS
	}
}

func sayAllDay(what string) func(Telling, said) string {
	return func(Telling, said) string { return "changed whether the " + what + " has a time of day" }
}

// checkCreate runs the check of each field a create carries, on the value
// sent (not left at its zero value), as an update sending it would, and
// keeps the value as the check tidies it.
func (s *Service) checkCreate(in *TaskCreate) []error {
	var errs []error
	for _, f := range taskFields {
		if f.create == nil || f.check == nil {
			continue
		}
		switch v := f.create(in).(type) {
		case *string:
			errs = append(errs, checkSent(s, f, v, *v != "")...)
		case *[]string:
			errs = append(errs, checkSent(s, f, v, *v != nil)...)
		case *[]Reminder:
			errs = append(errs, checkSent(s, f, v, *v != nil)...)
		case **int:
			errs = append(errs, checkSentPtr(s, f, *v)...)
		case **time.Time:
			errs = append(errs, checkSentPtr(s, f, *v)...)
		}
	}
	return errs
}

func checkSent[T any](s *Service, f taskField, v *T, sent bool) []error {
	if !sent {
		return nil
	}
	p := &Patch[T]{Set: true, Value: *v}
	errs := f.check(s, "body."+f.name, p)
	*v = p.Value
	return errs
}

// checkSentPtr checks a copy of an optional value: the create shares it
// with its sender, and no check tidies a number or an instant.
func checkSentPtr[T any](s *Service, f taskField, v *T) []error {
	if v == nil {
		return nil
	}
	c := *v
	return checkSent(s, f, &c, true)
}

// takeCreated gives a new task the values of the create it takes as sent.
func takeCreated(t *Task, in *TaskCreate) {
	for _, f := range taskFields {
		if !f.takes {
			continue
		}
		switch v := f.create(in).(type) {
		case **time.Time:
			*f.on(t).(**time.Time) = utcPtr(*v)
		default:
			reflect.ValueOf(f.on(t)).Elem().Set(reflect.ValueOf(v).Elem())
		}
	}
}

// taskImportChecks are the checks of a task record's fields: those of the
// table's fields held as text or a whole number, as an update sending the
// value runs them.
func taskImportChecks() map[string]importCheck {
	checks := map[string]importCheck{"ref": importRefNumber}
	for _, f := range taskFields {
		if f.check == nil || f.in == nil {
			continue
		}
		switch f.in(&TaskUpdate{}).(type) {
		case *Patch[string]:
			checks[f.name] = importText(func(s *Service, loc, v string) error {
				return joinErrors(f.check(s, loc, &Patch[string]{Set: true, Value: v})...)
			})
		case *Patch[int]:
			checks[f.name] = importNumber(func(s *Service, loc string, n int) error {
				return joinErrors(f.check(s, loc, &Patch[int]{Set: true, Value: n})...)
			})
		}
	}
	return checks
}
