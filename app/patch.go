package app

import (
	"bytes"
	"encoding/json"
)

// Patch is one field of a partial update: absent (Set false), null (Null
// true, which clears) or a value. Omitted fields stay as they are.
type Patch[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON records that the field was present, and whether it was null.
func (p *Patch[T]) UnmarshalJSON(b []byte) error {
	p.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		p.Null = true
		return nil
	}
	return json.Unmarshal(b, &p.Value)
}

// PatchOf returns a Patch holding v.
func PatchOf[T any](v T) Patch[T] { return Patch[T]{Set: true, Value: v} }
