package wire_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web/wire"
)

// Every request record converts every field it reads: with a value in
// each of its fields, its conversion leaves none of the app input's fields
// empty, and the two name the same fields (but for those listed, which
// the conversion reads or fills otherwise).
func TestRequestsConvertEveryField(t *testing.T) {
	t.Run("TaskCreate", converts(wire.TaskCreate.App))
	t.Run("TaskUpdate", converts(wire.TaskUpdate.App))
	t.Run("Move", converts(wire.Move.Task))
	t.Run("Completion", converts(wire.Completion.App))
	t.Run("RecordVerification", converts(wire.RecordVerification.App))
	t.Run("DocumentCreate", converts(wire.DocumentCreate.App, "TaskFields"))
	t.Run("DocumentUpdate", converts(wire.DocumentUpdate.App, "TaskFields"))
	t.Run("DocumentMove", converts(wire.DocumentMove.App))
	t.Run("LinkRequest", converts(wire.LinkRequest.App))
	t.Run("CommentCreate", converts(wire.CommentCreate.App, "NamesParent"))
	t.Run("CommentUpdate", converts(wire.CommentUpdate.App, "NamesParent"))
	t.Run("ProjectCreate", converts(wire.ProjectCreate.App))
	t.Run("ProjectUpdate", converts(wire.ProjectUpdate.App))
	t.Run("ProjectRoleGrant", converts(wire.ProjectRoleGrant.App))
	t.Run("WorkspaceCreate", converts(wire.WorkspaceCreate.App))
	t.Run("WorkspaceUpdate", converts(wire.WorkspaceUpdate.App))
	t.Run("Join", converts(wire.Join.App))
	t.Run("Regrade", converts(wire.Regrade.App))
	t.Run("CreateStatus", converts(wire.CreateStatus.App))
	t.Run("UpdateStatus", converts(wire.UpdateStatus.App))
	t.Run("CreateLinkType", converts(wire.CreateLinkType.App))
	t.Run("UpdateLinkType", converts(wire.UpdateLinkType.App))
	t.Run("CreateTag", converts(wire.CreateTag.App))
	t.Run("UpdateTag", converts(wire.UpdateTag.App))
	t.Run("UserCreate", converts(wire.UserCreate.App))
	t.Run("UserUpdate", converts(wire.UserUpdate.App))
	t.Run("TokenCreate", converts(wire.TokenCreate.App))
	t.Run("LoginLinkCreate", converts(wire.LoginLinkCreate.App))
	t.Run("InstanceUpdate", converts(wire.InstanceUpdate.App))
	t.Run("CalendarCreate", converts(func(in wire.CalendarCreate) app.CalendarCreate { return in.App("w1") }, "Workspace"))
	t.Run("RecurrenceParse", converts(wire.RecurrenceParse.App))
}

// converts checks conv as TestRequestsConvertEveryField says. otherwise
// lists the fields of either side that have no namesake on the other.
func converts[W, A any](conv func(W) A, otherwise ...string) func(*testing.T) {
	return func(t *testing.T) {
		var in W
		fill(reflect.ValueOf(&in).Elem())
		out := reflect.ValueOf(conv(in))
		names := func(t reflect.Type) []string {
			var out []string
			for f := range t.Fields() {
				if f.IsExported() && !slices.Contains(otherwise, f.Name) {
					out = append(out, f.Name)
				}
			}
			return out
		}
		if w, a := names(reflect.TypeFor[W]()), names(out.Type()); !slices.Equal(w, a) {
			t.Errorf("the request has %v, the app's input %v", w, a)
		}
		for f := range out.Type().Fields() {
			if f.IsExported() && !slices.Contains(otherwise, f.Name) && out.FieldByIndex(f.Index).IsZero() {
				t.Errorf("%s is left empty", f.Name)
			}
		}
	}
}

// fill puts a value that is not the zero value in v and everything in it.
func fill(v reflect.Value) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(1, 0)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e)
		v.SetMapIndex(reflect.ValueOf("x"), e)
	case reflect.Interface:
		v.Set(reflect.ValueOf("x"))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

// The fields a document or a comment has not are passed on by name, to be
// refused saying why: a document's task fields in one order, whatever the
// body's, null ones too.
func TestRefusedFieldsAreNamed(t *testing.T) {
	var d wire.DocumentUpdate
	if err := json.Unmarshal([]byte(`{"assignee":"bob","title":"x","due_at":null}`), &d); err != nil {
		t.Fatal(err)
	}
	if got := d.App().TaskFields; !slices.Equal(got, []string{"due_at", "assignee"}) {
		t.Errorf("task fields %v", got)
	}
	var c wire.CommentCreate
	if err := json.Unmarshal([]byte(`{"body":"x","parent_id":"c1"}`), &c); err != nil {
		t.Fatal(err)
	}
	if !c.App().NamesParent {
		t.Error("a parent_id is not passed on")
	}
}

// A partial update tells an omitted field (it stays) from a null one (it
// clears) and from a value; a reference is read from a number or a string,
// with or without its "#".
func TestPatchAndRefDecoding(t *testing.T) {
	for _, c := range []struct {
		body string
		want app.TaskUpdate
	}{
		{`{}`, app.TaskUpdate{}},
		{`{"title":null}`, app.TaskUpdate{Title: app.Patch[string]{Set: true, Null: true}}},
		{`{"title":"x"}`, app.TaskUpdate{Title: app.PatchOf("x")}},
		{`{"importance":0}`, app.TaskUpdate{Importance: app.PatchOf(0)}},
		{`{"parent":null}`, app.TaskUpdate{Parent: app.Patch[app.FlexRef]{Set: true, Null: true}}},
		{`{"parent":42}`, app.TaskUpdate{Parent: app.PatchOf[app.FlexRef]("42")}},
		{`{"parent":"#42"}`, app.TaskUpdate{Parent: app.PatchOf[app.FlexRef]("42")}},
		{`{"parent":"t1"}`, app.TaskUpdate{Parent: app.PatchOf[app.FlexRef]("t1")}},
	} {
		var in wire.TaskUpdate
		if err := json.Unmarshal([]byte(c.body), &in); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := in.App(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.body, got, c.want)
		}
	}
}

// The request records a client sends (the terminal commands' writes) are
// written as they are read: with every field set, a record is written with
// each of its fields and reads back to what writes the same body; empty,
// it is written as {}, no field sent.
func TestClientRequestsAreWrittenAsRead(t *testing.T) {
	t.Run("TaskCreate", writtenAsRead[wire.TaskCreate])
	t.Run("TaskUpdate", writtenAsRead[wire.TaskUpdate])
	t.Run("Claim", writtenAsRead[wire.Claim])
	t.Run("Completion", writtenAsRead[wire.Completion])
	t.Run("CommentCreate", writtenAsRead[wire.CommentCreate])
	t.Run("LinkRequest", writtenAsRead[wire.LinkRequest])
	t.Run("DocumentCreate", writtenAsRead[wire.DocumentCreate])
}

func writtenAsRead[T any](t *testing.T) {
	var in T
	fill(reflect.ValueOf(&in).Elem())
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var sent map[string]json.RawMessage
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	for f := range reflect.TypeFor[T]().Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && sent[name] == nil {
			t.Errorf("%s is not written: %s", name, body)
		}
	}
	var back T
	if err := wire.DecodeBody(body, &back, 1<<20); err != nil {
		t.Fatalf("%s is refused: %v", body, err)
	}
	if again, _ := json.Marshal(back); string(again) != string(body) {
		t.Errorf("read back and written again:\n%s\nwant\n%s", again, body)
	}
	var empty T
	if b, _ := json.Marshal(empty); string(b) != "{}" {
		t.Errorf("empty, it is written as %s", b)
	}
}

// A partial update writes an omitted field not at all, a cleared one as
// null and a value as itself, a zero value too.
func TestPatchEncoding(t *testing.T) {
	in := wire.TaskUpdate{Title: wire.PatchNull[string](), Importance: wire.PatchOf(0), Tags: wire.PatchOf([]string{}),
		Parent: wire.PatchOf[wire.FlexRef]("42")}
	b, err := json.Marshal(in)
	if want := `{"title":null,"parent":"42","tags":[],"importance":0}`; err != nil || string(b) != want {
		t.Errorf("%s, %v; want %s", b, err, want)
	}
}
