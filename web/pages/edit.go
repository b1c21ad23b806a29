package pages

import (
	"strings"

	"tend/app"
)

// An edit form sends every field it shows, and beside each a hidden
// was.<name> holding the value it showed. Only the fields a person changed
// go into the update, so saving a title never re-sends a due date read back
// from its display (a phrase, a zone) or touches a repeat; a form without
// was.<name> (a script's, an older page's) sends what it carries.

// changed reports whether the form changes the field name.
func (f *pageForm) changed(name string) bool {
	if !f.has(name) {
		return false
	}
	return !f.has("was."+name) || f.str(name) != f.str("was."+name)
}

// text is a changed text field as a patch ("" is set as it is: the
// Service says what empty means for the field).
func (f *pageForm) text(name string) app.Patch[string] {
	if !f.changed(name) {
		return app.Patch[string]{}
	}
	return app.PatchOf(f.str(name))
}

// tags is a changed list of tags, written apart by spaces or commas, with
// or without their '#'.
func (f *pageForm) tags(name string) app.Patch[[]string] {
	if !f.changed(name) {
		return app.Patch[[]string]{}
	}
	names := strings.Fields(strings.ReplaceAll(f.str(name), ",", " "))
	for i, n := range names {
		names[i] = strings.TrimPrefix(n, "#")
	}
	return app.Patch[[]string]{Set: true, Value: names}
}

// ref is a changed reference to another item ("#12" or "12"); empty is
// null, the top level.
func (f *pageForm) ref(name string) app.Patch[app.FlexRef] {
	if !f.changed(name) {
		return app.Patch[app.FlexRef]{}
	}
	v := strings.TrimPrefix(strings.TrimSpace(f.str(name)), "#")
	if v == "" {
		return app.Patch[app.FlexRef]{Set: true, Null: true}
	}
	return app.PatchOf(app.FlexRef(v))
}
