package app

// Patch is one field of a partial update: absent (Set false), null (Null
// true, which clears) or a value. Omitted fields stay as they are. The
// adapters read it from what they are sent (web/wire.Patch from JSON).
type Patch[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// PatchOf returns a Patch holding v.
func PatchOf[T any](v T) Patch[T] { return Patch[T]{Set: true, Value: v} }
