package app

// setChange applies a non-null patch to a string field and notes the change.
func setChange[T comparable](changes map[string]any, name string, field *T, p Patch[T]) {
	if !p.Set || p.Null || *field == p.Value {
		return
	}
	changes[name] = map[string]any{"from": *field, "to": p.Value}
	*field = p.Value
}

// checkVersion refuses a write whose expected_version is stale.
func checkVersion(expected *int, have int) error {
	if expected != nil && *expected != have {
		return Errorf(CodeVersionConflict, "the record changed since you read it (you expected version %d, it is at %d); read it again and reapply your change", *expected, have)
	}
	return nil
}
