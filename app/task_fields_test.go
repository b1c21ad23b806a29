package app

import (
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/internal/golden"
)

// updateControls are the fields of TaskUpdate that say how to apply the
// change, not what a task holds: the field table has no entry for them.
var updateControls = []string{"AppliesTo", "ExpectedVersion"}

// TestTaskFieldsCoverTaskUpdate checks every field of TaskUpdate is a field
// of the table (or the phrase of one) and every entry is complete.
func TestTaskFieldsCoverTaskUpdate(t *testing.T) {
	var u TaskUpdate
	covered := map[uintptr]string{}
	for _, f := range taskFields {
		if f.in == nil {
			if f.words == nil || f.apply != nil || f.series || f.check != nil {
				t.Errorf("%s: a field of other items has words only", f.name)
			}
			continue
		}
		covered[reflect.ValueOf(f.in(&u)).Pointer()] = f.name
		if f.phrase != nil {
			covered[reflect.ValueOf(f.phrase.in(&u)).Pointer()] = f.phrase.name
			if _, ok := f.in(&u).(*Patch[time.Time]); !ok {
				t.Errorf("%s: a phrase sets an instant", f.name)
			}
		}
		if f.words == nil {
			t.Errorf("%s: no words for the history", f.name)
		}
		if (f.series || f.apply != nil && reflect.ValueOf(f.apply).Pointer() == reflect.ValueOf(asSent).Pointer()) && f.on == nil {
			t.Errorf("%s: copied or stored as sent but no task field (on)", f.name)
		}
	}
	uncovered(t, &u, covered, updateControls)
	if len(taskFieldNamed) != len(taskFields) {
		t.Errorf("%d names for %d fields: a name is listed twice", len(taskFieldNamed), len(taskFields))
	}
}

// TestTaskFieldsAsGolden pins what the table says of each field, in its
// order, to testdata/task_fields.golden: whether an update and a create
// carry it, whether it cannot be cleared, whether a new task takes it as
// sent, whether the next occurrence copies it, its phrase. The file began
// as the lists the table replaced said (seriesFields, nextOccurrence,
// seriesCopy, seriesSent, the fields a create took by hand); a new field
// is a line of it, written with -update and read in review.
func TestTaskFieldsAsGolden(t *testing.T) {
	var b strings.Builder
	for _, f := range taskFields {
		says := []string{f.name}
		for _, p := range []struct {
			what string
			is   bool
		}{{"update", f.in != nil}, {"keeps", f.keeps}, {"create", f.create != nil}, {"takes", f.takes},
			{"series", f.series}, {"alone", f.alone}} {
			if p.is {
				says = append(says, p.what)
			}
		}
		if f.phrase != nil {
			says = append(says, "phrase:"+f.phrase.name)
		}
		b.WriteString(strings.Join(says, " ") + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "task_fields.golden"), []byte(b.String()))
}

// createOnly are the fields of TaskCreate that are no field of a task:
// the table has no entry for them.
var createOnly = []string{"Text"}

// TestTaskFieldsCoverTaskCreate checks every field of TaskCreate is a
// field of the table and that one a new task takes as sent lands in a
// task field of its type.
func TestTaskFieldsCoverTaskCreate(t *testing.T) {
	var in TaskCreate
	covered := map[uintptr]string{}
	for _, f := range taskFields {
		if f.create == nil {
			if f.takes {
				t.Errorf("%s: taken as sent but not in a create", f.name)
			}
			continue
		}
		if f.in == nil {
			t.Errorf("%s: in a create but not in an update", f.name)
		}
		covered[reflect.ValueOf(f.create(&in)).Pointer()] = f.name
		if f.takes && (f.on == nil || reflect.TypeOf(f.on(&Task{})) != reflect.TypeOf(f.create(&in))) {
			t.Errorf("%s: taken as sent but not into a task field of its type", f.name)
		}
	}
	uncovered(t, &in, covered, createOnly)
}

// uncovered fails t for each field of the struct p points at whose address
// covered lacks, but those named in except, and for each the table names
// otherwise than the wire does: web/wire/taskgen declares the request
// records from TaskCreate and TaskUpdate, each field under its Go name in
// snake case.
func uncovered(t *testing.T, p any, covered map[uintptr]string, except []string) {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		field, ok := covered[v.Field(i).Addr().Pointer()]
		if !ok && !slices.Contains(except, name) {
			t.Errorf("%s.%s has no entry in taskFields", v.Type().Name(), name)
		}
		if wire := strings.ToLower(wordStart.ReplaceAllString(name, "${1}_${2}")); ok && field != wire {
			t.Errorf("%s.%s is %s in taskFields but %s on the wire", v.Type().Name(), name, field, wire)
		}
	}
}

// wordStart is a capital that starts a word of a Go name, after the letter
// or digit that ends the one before.
var wordStart = regexp.MustCompile(`([a-z0-9])([A-Z])`)

func TestValidateTaskCreateByField(t *testing.T) {
	s := &Service{limits: DefaultLimits}
	long := strings.Repeat("x", s.limits.MaxDescriptionLength+1)
	bad := time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		in   TaskCreate
		loc  string // "" when it passes
	}{
		{"title", TaskCreate{Title: "Call the bank"}, ""},
		{"no title", TaskCreate{}, "body.title"},
		{"title empty", TaskCreate{Title: " "}, "body.title"},
		{"text", TaskCreate{Text: "call the bank !3"}, ""},
		{"text long", TaskCreate{Text: long + long}, "body.text"},
		{"description long", TaskCreate{Title: "x", Description: long}, "body.description"},
		{"importance", TaskCreate{Title: "x", Importance: n(6)}, "body.importance"},
		{"urgency", TaskCreate{Title: "x", Urgency: n(0)}, "body.urgency"},
		{"estimate", TaskCreate{Title: "x", EstimateMinutes: n(-1)}, "body.estimate_minutes"},
		{"timezone", TaskCreate{Title: "x", Timezone: "Nowhere/Else"}, "body.timezone"},
		{"due_at", TaskCreate{Title: "x", DueAt: &bad}, "body.due_at"},
		{"starts_at", TaskCreate{Title: "x", StartsAt: &bad}, "body.starts_at"},
		{"tags", TaskCreate{Title: "x", Tags: []string{"a b"}}, "body.tags"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refusedAt(t, s.validateTaskCreate(&c.in), c.loc) })
	}
	tags := TaskCreate{Title: "x", Tags: []string{"Home", "home", "#work"}}
	if err := s.validateTaskCreate(&tags); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tags.Tags, []string{"Home", "work"}) {
		t.Errorf("tags normalised to %q", tags.Tags)
	}
	var none TaskCreate
	none.Title = "x"
	if err := s.validateTaskCreate(&none); err != nil || none.Tags != nil {
		t.Errorf("no tags sent came back as %q (%v)", none.Tags, err)
	}
}

func TestValidateTaskUpdateByField(t *testing.T) {
	s := &Service{limits: DefaultLimits}
	long := strings.Repeat("x", s.limits.MaxDescriptionLength+1)
	bad := time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		in   TaskUpdate
		loc  string // "" when it passes
	}{
		{"title", TaskUpdate{Title: PatchOf("Call the bank")}, ""},
		{"title empty", TaskUpdate{Title: PatchOf(" ")}, "body.title"},
		{"title null", TaskUpdate{Title: Patch[string]{Set: true, Null: true}}, "body.title"},
		{"type null", TaskUpdate{Type: Patch[string]{Set: true, Null: true}}, "body.type"},
		{"status null", TaskUpdate{Status: Patch[string]{Set: true, Null: true}}, "body.status"},
		{"description long", TaskUpdate{Description: PatchOf(long)}, "body.description"},
		{"description null", TaskUpdate{Description: Patch[string]{Set: true, Null: true}}, ""},
		{"importance", TaskUpdate{Importance: PatchOf(6)}, "body.importance"},
		{"importance null", TaskUpdate{Importance: Patch[int]{Set: true, Null: true}}, ""},
		{"urgency", TaskUpdate{Urgency: PatchOf(0)}, "body.urgency"},
		{"estimate", TaskUpdate{EstimateMinutes: PatchOf(-1)}, "body.estimate_minutes"},
		{"timezone", TaskUpdate{Timezone: PatchOf("Nowhere/Else")}, "body.timezone"},
		{"timezone null", TaskUpdate{Timezone: Patch[string]{Set: true, Null: true}}, ""},
		{"due_at", TaskUpdate{DueAt: PatchOf(bad)}, "body.due_at"},
		{"starts_at", TaskUpdate{StartsAt: PatchOf(bad)}, "body.starts_at"},
		{"snoozed_until", TaskUpdate{SnoozedUntil: PatchOf(bad)}, "body.snoozed_until"},
		{"until and due_at", TaskUpdate{Until: PatchOf("friday"), DueAt: PatchOf(time.Now())}, "body.until"},
		{"plan and starts_at", TaskUpdate{Plan: PatchOf("friday"), StartsAt: PatchOf(time.Now())}, "body.plan"},
		{"defer and snoozed_until", TaskUpdate{Defer: PatchOf("friday"), SnoozedUntil: PatchOf(time.Now())}, "body.defer"},
		{"tags", TaskUpdate{Tags: PatchOf([]string{"a b"})}, "body.tags"},
		{"applies_to", TaskUpdate{AppliesTo: PatchOf("always")}, "body.applies_to"},
		{"applies_to this_one and repeat", TaskUpdate{AppliesTo: PatchOf(AppliesThisOne), Repeat: PatchOf("daily")}, "body.applies_to"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { refusedAt(t, s.validateTaskUpdate(&c.in), c.loc) })
	}
	tags := TaskUpdate{Tags: PatchOf([]string{"Home", "home", "#work"})}
	if err := s.validateTaskUpdate(&tags); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tags.Tags.Value, []string{"Home", "work"}) {
		t.Errorf("tags normalised to %q", tags.Tags.Value)
	}
}

// refusedAt fails t unless err refuses first at loc, or is nil for "".
func refusedAt(t *testing.T, err error, loc string) {
	t.Helper()
	if loc == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	if e := AsError(err); e == nil || len(e.Fields) == 0 || strings.Join(e.Fields[0].Loc, ".") != loc {
		t.Fatalf("got %v, want a refusal at %s", err, loc)
	}
}

// TestTaskFieldsStoredAsSent applies each field stored as sent and checks
// the task's field and the change noted, as patchInt, patchTime,
// patchBool and the timezone's own step did.
func TestTaskFieldsStoredAsSent(t *testing.T) {
	at := time.Date(2026, 3, 6, 9, 0, 0, 0, time.FixedZone("x", 3600))
	cases := []struct {
		in   TaskUpdate
		name string
		want any // the task's field afterwards
	}{
		{TaskUpdate{Importance: PatchOf(4)}, "importance", 4},
		{TaskUpdate{Urgency: PatchOf(2)}, "urgency", 2},
		{TaskUpdate{EstimateMinutes: PatchOf(90)}, "estimate_minutes", 90},
		{TaskUpdate{DueAt: PatchOf(at)}, "due_at", at.UTC()},
		{TaskUpdate{StartsAt: PatchOf(at)}, "starts_at", at.UTC()},
		{TaskUpdate{SnoozedUntil: PatchOf(at)}, "snoozed_until", at.UTC()},
		{TaskUpdate{DueIsAllDay: PatchOf(true)}, "due_is_all_day", true},
		{TaskUpdate{StartsIsAllDay: PatchOf(true)}, "starts_is_all_day", true},
		{TaskUpdate{SnoozedIsAllDay: PatchOf(true)}, "snoozed_is_all_day", true},
		{TaskUpdate{Timezone: PatchOf("Europe/Berlin")}, "timezone", "Europe/Berlin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := taskFieldNamed[c.name]
			var task Task
			w := &taskWrite{changes: map[string]any{}}
			if err := f.apply(w, f, &task, &c.in); err != nil {
				t.Fatal(err)
			}
			got := reflect.ValueOf(f.on(&task)).Elem()
			if got.Kind() == reflect.Pointer {
				got = got.Elem()
			}
			if !reflect.DeepEqual(got.Interface(), c.want) {
				t.Errorf("task's %s = %v, want %v", c.name, got.Interface(), c.want)
			}
			if pair, ok := w.changes[c.name].(map[string]any); !ok || len(w.changes) != 1 || !hasKey(pair, "from") {
				t.Errorf("changes %v, want one from/to pair for %s", w.changes, c.name)
			}
			// Sent again, it changes nothing; null clears a value that can be none.
			w.changes = map[string]any{}
			if err := f.apply(w, f, &task, &c.in); err != nil || len(w.changes) != 0 {
				t.Errorf("the same value again noted %v (%v)", w.changes, err)
			}
		})
	}
	task := Task{Importance: new(int)}
	w := &taskWrite{changes: map[string]any{}}
	f := taskFieldNamed["importance"]
	if err := f.apply(w, f, &task, &TaskUpdate{Importance: Patch[int]{Set: true, Null: true}}); err != nil || task.Importance != nil {
		t.Errorf("null left importance %v (%v)", task.Importance, err)
	}
}

// TestNextOccurrenceCopiesTheSeries checks the next occurrence copies the
// series' fields and only those.
func TestNextOccurrenceCopiesTheSeries(t *testing.T) {
	due := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	one, two := 1, 2
	prev := Task{ID: "a", WorkspaceID: "w", ProjectID: "p", ParentID: "q", Title: "Water the plants", Description: "all of them",
		TypeID: "ty", StatusID: "st", Tags: []string{"home"}, AssigneeID: "u", Importance: &one, Urgency: &two, EstimateMinutes: &two,
		DueAt: &due, StartsAt: &due, SnoozedUntil: &due, StartsIsAllDay: true, SnoozedIsAllDay: true, Timezone: "Europe/Berlin",
		RepeatRule: "FREQ=WEEKLY", SeriesID: "s", Occurrence: 1, CreatedAt: due}
	n, ok, err := nextOccurrence(prev, due)
	if err != nil || !ok {
		t.Fatalf("no next occurrence: %v", err)
	}
	for _, f := range taskFields {
		if f.on == nil || f.name == "due_at" || f.name == "due_is_all_day" {
			continue // the due is the rule's next
		}
		same := reflect.DeepEqual(reflect.ValueOf(f.on(&n)).Elem().Interface(), reflect.ValueOf(f.on(&prev)).Elem().Interface())
		if same != f.series {
			t.Errorf("%s: copied %v, want %v", f.name, same, f.series)
		}
	}
	if n.StatusID != "" || n.Occurrence != 2 || n.SeriesID != "s" || n.DueAt == nil || !n.DueAt.After(due) {
		t.Errorf("next occurrence %+v", n)
	}
}
