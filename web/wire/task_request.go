package wire

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"tend/app"
)

// TaskCreate and TaskUpdate are declared by taskgen from app's namesakes
// (task_app_gen.go): a field added to app's reaches the JSON API, and carry
// takes it across, without a line in package wire.

// App is the new task as the Service takes it.
func (in TaskCreate) App() (out app.TaskCreate) {
	carry(&out, in)
	return out
}

// App is the change as the Service takes it: the one builder of
// app.TaskUpdate, whichever adapter made the record.
func (in TaskUpdate) App() (out app.TaskUpdate) {
	carry(&out, in)
	return out
}

// carry sets each field of the app input dst points at from its namesake
// in src, a request record: a field added to both is carried without a
// line here (TestRequestsConvertEveryField holds the two in step). The
// fields are of one type on both sides or of types alike but for their
// names (a wire Patch and an app one, a wire FlexRef and an app one).
func carry(dst, src any) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for i := range s.NumField() {
		from, to := s.Field(i), d.FieldByName(s.Type().Field(i).Name)
		if from.Kind() != reflect.Struct || from.Type().ConvertibleTo(to.Type()) {
			to.Set(convert(from, to.Type()))
			continue
		}
		// A Patch of a named type (Patch[FlexRef]): its fields one by one.
		for j := range from.NumField() {
			to.Field(j).Set(convert(from.Field(j), to.Field(j).Type()))
		}
	}
}

// convert is v as a value of type t: converted, or for a list of records
// alike but for their tags (wire's Reminder, app's), element by element.
func convert(v reflect.Value, t reflect.Type) reflect.Value {
	if v.Kind() != reflect.Slice || v.Type().ConvertibleTo(t) {
		return v.Convert(t)
	}
	if v.IsNil() {
		return reflect.Zero(t)
	}
	out := reflect.MakeSlice(t, v.Len(), v.Len())
	for i := range v.Len() {
		out.Index(i).Set(v.Index(i).Convert(t.Elem()))
	}
	return out
}

// TaskUpdateFields are the JSON names of the fields of TaskUpdate that
// SetText sets: those written as text, not instants and their all-day
// flags (the phrases set them) nor expected_version.
var TaskUpdateFields = func() []string {
	var names []string
	v := reflect.ValueOf(&TaskUpdate{}).Elem()
	for i := range v.NumField() {
		if _, ok := v.Field(i).Addr().Interface().(textPatch); ok && v.Field(i).FieldByName("Value").Kind() != reflect.Bool &&
			v.Field(i).FieldByName("Value").Type() != reflect.TypeFor[time.Time]() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			names = append(names, name)
		}
	}
	return names
}()

// SetText sets the field of the update named by its JSON name from text as
// a person or an agent writes it: the one reading of such text the
// adapters (the pages' form, the terminal's flags and editor, MCP's
// arguments) share. "" clears, as null does, a field that can be cleared
// (app.TaskFieldClears); a field that cannot is sent "" for the Service to
// refuse. A number is digits; tags are names apart by spaces or commas,
// with or without their '#'; a parent is a ref with or without its '#'.
// An unknown name or a number that is none is refused, naming body.<name>.
func (in *TaskUpdate) SetText(name, text string) error {
	v := reflect.ValueOf(in).Elem()
	for i := range v.NumField() {
		if tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ","); tag == name {
			p, ok := v.Field(i).Addr().Interface().(textPatch)
			if !ok || !slices.Contains(TaskUpdateFields, name) {
				break
			}
			if text == "" && app.TaskFieldClears(name) {
				p.clear()
				return nil
			}
			if err := p.setText(text); err != nil {
				return app.Invalidf("body."+name, "%s", err.Error())
			}
			return nil
		}
	}
	return app.Invalidf("body."+name, "no field of a task's update written as text is named %s", name)
}

// textPatch is a Patch that SetText can set.
type textPatch interface {
	clear()
	setText(text string) error
}

func (p *Patch[T]) clear() { *p = PatchNull[T]() }

func (p *Patch[T]) setText(text string) error {
	switch v := any(&p.Value).(type) {
	case *string:
		*v = text
	case *int:
		n, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return fmt.Errorf("%q is no whole number", text)
		}
		*v = n
	case *[]string:
		*v = []string{}
		for _, t := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			*v = append(*v, strings.TrimPrefix(t, "#"))
		}
	case *FlexRef:
		*v = FlexRef(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	case *[]Reminder:
		rs, err := app.ParseRemindersList(text)
		if err != nil {
			return err
		}
		*v = make([]Reminder, len(rs))
		for i, r := range rs {
			(*v)[i] = Reminder(r)
		}
	}
	p.Set, p.Null = true, false
	return nil
}

// Move is the body of POST /v1/tasks/{id_or_ref}/move and
// /v1/projects/{key}/move: a new parent, or null for the top level, and
// (for a task) a project to refile it into.
type Move struct {
	Parent  Patch[FlexRef] `json:"parent"`
	Project Patch[string]  `json:"project"`
}

// Task is the move of a task as the Service takes it.
func (in Move) Task() app.TaskMove {
	return app.TaskMove{Parent: refPatch(in.Parent), Project: in.Project.App()}
}

// ProjectParent is the move of a project: the parent it names, which a
// project's move must, and no project (a project is not refiled into
// another as a task is).
func (in Move) ProjectParent() (app.Patch[string], error) {
	if !in.Parent.Set || in.Project.Set {
		return app.Patch[string]{}, app.Invalidf("body.parent", "send parent: a project key or id, or null for the top level")
	}
	return app.Patch[string]{Set: true, Null: in.Parent.Null, Value: string(in.Parent.Value)}, nil
}

// Claim is the body of POST /v1/tasks/{id_or_ref}/claim: how long the
// claim lasts, the claim_minutes setting when omitted.
type Claim struct {
	Minutes *int `json:"minutes,omitempty"`
}

// Completion is the body of POST /v1/tasks/{id_or_ref}/complete: the
// evidence, if any, to record with the completion.
type Completion struct {
	Verification *RecordVerification `json:"verification,omitempty"`
}

// App is the completion as the Service takes it.
func (in Completion) App() app.Completion {
	var c app.Completion
	if v := in.Verification; v != nil {
		rv := v.App()
		c.Verification = &rv
	}
	return c
}

// RecordVerification is the body of POST
// /v1/tasks/{id_or_ref}/verifications. There is no ran_at: the service
// stamps it.
type RecordVerification struct {
	Passed        *bool   `json:"passed,omitempty"`
	Summary       *string `json:"summary,omitempty"`
	CommitSHA     *string `json:"commit_sha,omitempty"`
	TreeHash      *string `json:"tree_hash,omitempty"`
	OutputExcerpt *string `json:"output_excerpt,omitempty"`
}

// App is the verification as the Service takes it.
func (in RecordVerification) App() app.RecordVerification { return app.RecordVerification(in) }
