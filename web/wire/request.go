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
// the Service takes. The app's inputs carry no JSON names: what a client
// sends is written down here, once, and a rename in the domain cannot
// change the API.

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
