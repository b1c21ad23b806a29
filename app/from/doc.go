// Package from reads what other tools export into an app.Migration: a
// Todoist project's CSV, Vikunja's "export your data" archive, beads'
// issues.jsonl and the JSON gh issue list prints. Each reader only reads:
// where things go, what becomes of an id already imported, and every rule
// of tend's are app.Service.Migrate's. A file a reader cannot read is
// refused with the line or record it is about (app.CodeInvalid), as is a
// record that names a field twice; one larger than the cap each reader is
// given (DefaultMaxSize) is refused with app.CodeTooLarge.
package from
