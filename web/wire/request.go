package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"tend/app"
)

// The request records: the JSON bodies of the API's writes, as their
// fields are named on the wire, each with App, its conversion to the input
// the Service takes. Those a client of tend sends (the terminal commands'
// writes) are written as well as read: a field left empty is left out,
// and json.Marshal of a record is the body that asks for it. The app's
// inputs carry no JSON names: what a client sends is written down here,
// once, and a rename in the domain cannot change the API.

// Patch is one field of a partial-update body: omitted (Set false), null
// (Null true, which clears) or a value. It is app.Patch with its reading
// from JSON.
type Patch[T any] app.Patch[T]

// UnmarshalJSON records that the field was present, and whether it was null.
func (p *Patch[T]) UnmarshalJSON(b []byte) error {
	p.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		p.Null = true
		return nil
	}
	return json.Unmarshal(b, &p.Value)
}

// MarshalJSON writes the field as a client sends it: null when it clears,
// else its value. An omitted field (Set false) is left out of its record
// by the omitzero its tag carries (IsZero).
func (p Patch[T]) MarshalJSON() ([]byte, error) {
	if p.Null {
		return []byte("null"), nil
	}
	return json.Marshal(p.Value)
}

// IsZero reports whether the field is omitted.
func (p Patch[T]) IsZero() bool { return !p.Set }

// PatchOf is a partial-update field that sets v.
func PatchOf[T any](v T) Patch[T] { return Patch[T]{Set: true, Value: v} }

// PatchNull is a partial-update field that clears.
func PatchNull[T any]() Patch[T] { return Patch[T]{Set: true, Null: true} }

// App is p as the Service takes it.
func (p Patch[T]) App() app.Patch[T] { return app.Patch[T](p) }

// FlexRef is a reference to an item sent as a JSON integer or string: a
// ref (42, "42", "#42") or an id.
type FlexRef app.FlexRef

// UnmarshalJSON accepts 42, "42", "#42" or an id; null is no reference.
func (f *FlexRef) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*f = ""
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	*f = FlexRef(strings.TrimPrefix(s, "#"))
	return nil
}

// refPatch is a Patch of a reference as the Service takes it.
func refPatch(p Patch[FlexRef]) app.Patch[app.FlexRef] {
	return app.Patch[app.FlexRef]{Set: p.Set, Null: p.Null, Value: app.FlexRef(p.Value)}
}
