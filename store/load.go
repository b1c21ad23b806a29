package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tend/app"
)

// importCacheKiB is the writer's page cache while an import runs: with
// SQLite's default of 2 MiB the indexes of a 100,000-task import no longer
// fit, and every insert reads back pages it just wrote (-13 % CPU time,
// BENCHMARKS.md "Export and import").
const importCacheKiB = 65536

// importing is what a transaction keeps while an import runs.
type importing struct {
	// created: the database held no instance, so the file's sequence
	// numbers are kept (importSeq).
	created bool
	// seqs is the last sequence number written per table.
	seqs map[string]int64
	// refs names, by "table.column", the kind of record a column with a
	// foreign key refers to.
	refs map[string]string
	// cacheSize is the writer's page cache before the import.
	cacheSize int64
}

// importUnkeyed names what a reference the schema holds no foreign key for
// must name, by "table.column": a kind of record, the column whose value
// names the kind ("@entity_type"), or "" for a row of any kind.
var importUnkeyed = map[string]string{
	"comments.entity_id":     "@entity_type",
	"links.source_id":        "@source_type",
	"links.target_id":        "@target_type",
	"mentions.source_id":     "@source_type",
	"mentions.target_id":     "",
	"external_ids.entity_id": "@entity_type",
	"events.project_id":      "project",
}

// ImportBegin readies the transaction for an import: foreign keys are
// checked at its end (ImportCheck), since some tables refer to themselves
// in an order no single pass can follow (a task moved under one written
// after it, an agent handed to an account created after it), and the page
// cache is enlarged until ImportEnd. created says the database holds no
// instance yet.
func (t *Tx) ImportBegin(ctx context.Context, created bool) error {
	imp := &importing{created: created, seqs: map[string]int64{}}
	var err error
	if imp.refs, err = t.foreignKeys(ctx); err != nil {
		return err
	}
	if err := t.tx.GetContext(ctx, &imp.cacheSize, "PRAGMA cache_size"); err != nil {
		return mapErr(err)
	}
	t.imp = imp
	_, err = t.tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON")
	if err == nil {
		_, err = t.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", importCacheKiB))
	}
	return mapErr(err)
}

// foreignKeys reads from the schema, by "table.column", the kind of record
// each foreign key of an exported table refers to.
func (t *Tx) foreignKeys(ctx context.Context) (map[string]string, error) {
	var fks []struct {
		Table  string `db:"tbl"`
		Column string `db:"col"`
		Parent string `db:"parent"`
	}
	if err := t.tx.SelectContext(ctx, &fks, `SELECT m.name AS tbl, f."from" AS col, f."table" AS parent
		FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`); err != nil {
		return nil, mapErr(err)
	}
	out := map[string]string{}
	for _, fk := range fks {
		if d := dumpTableFor(fk.Parent); d != nil {
			out[fk.Table+"."+fk.Column] = d.kind
		}
	}
	return out, nil
}

// ImportEnd gives the writer its page cache back, whether the import
// succeeded or not.
func (t *Tx) ImportEnd(ctx context.Context) error {
	_, err := t.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = %d", t.imp.cacheSize))
	t.imp = nil
	return mapErr(err)
}

// ImportRecord writes one record of an export: each field into its column,
// ids through m. The record's fields may come in any order; a field the
// record's kind does not have is refused, and so is a value of the wrong
// kind for its column.
func (t *Tx) ImportRecord(ctx context.Context, rec *app.Record, m app.ImportMap) error {
	d := dumpTableOf(rec.Kind)
	if d == nil {
		return app.Errorf(app.CodeInvalid, "an export holds no record of kind %q", rec.Kind)
	}
	vals := make([]any, len(d.cols))
	set := make([]bool, len(d.cols))
	for _, f := range rec.Fields {
		i, ok := d.byName[f.Name]
		if !ok || d.cols[i].kind == dSecret {
			return app.Errorf(app.CodeInvalid, "a %s record has no field %q", rec.Kind, f.Name)
		}
		v, err := t.importValue(ctx, rec, d, d.cols[i], f.Value, m)
		if err != nil {
			return err
		}
		vals[i], set[i] = v, true
	}
	var names, marks []string
	var args []any
	for i, c := range d.cols {
		if c.kind == dSecret {
			vals[i], set[i] = m.UnknownSecretHash(), true
		}
		if set[i] {
			names = append(names, c.name)
			marks = append(marks, "?")
			args = append(args, vals[i])
		}
	}
	_, err := t.tx.ExecContext(ctx, "INSERT INTO "+d.table+" ("+strings.Join(names, ", ")+") VALUES ("+strings.Join(marks, ", ")+")", args...)
	return importErr(rec.Kind, err)
}

// importValue checks one value against its column and maps it.
func (t *Tx) importValue(ctx context.Context, rec *app.Record, d *dumpTable, c dumpCol, v any, m app.ImportMap) (any, error) {
	wrong := func(want string) error {
		return app.Errorf(app.CodeInvalid, "field %q of a %s record holds %s, not %s", c.name, d.kind, describeValue(v), want)
	}
	if v == nil {
		return nil, nil
	}
	switch c.kind {
	case dInt:
		if _, ok := v.(int64); !ok {
			return nil, wrong("an integer")
		}
		return v, nil
	case dSeq:
		n, ok := v.(int64)
		if !ok {
			return nil, wrong("an integer")
		}
		return t.importSeq(ctx, d, n)
	case dJSON:
		var s string
		switch x := v.(type) {
		case app.JSONText:
			s = string(x)
		case string:
			if !json.Valid([]byte(x)) {
				return nil, wrong("JSON")
			}
			s = x
		default:
			return nil, wrong("JSON")
		}
		return m.JSON(s), nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, wrong("a string")
	}
	switch c.kind {
	case dTime:
		if _, ok := parseStored(s); !ok {
			return nil, wrong("an instant written as 2006-01-02T15:04:05.000Z")
		}
	case dID:
		if c.name == "id" {
			return m.Row(d.kind, s)
		}
		return m.Ref(c.name, t.importTarget(rec, d, c), s)
	case dUser:
		return m.User(c.name, s)
	case dAbout, dToken:
		// The file holds no credential, so the one a row names is not of
		// the file: kept into an empty database, made one nothing here has
		// otherwise, never a credential of this instance.
		return m.About(s), nil
	case dOwnID:
		return m.OwnID(s), nil
	case dPrefix:
		return m.FeedPrefix(s), nil
	}
	return s, nil
}

// importSeq gives a row its place in its table. Into a new database the
// file's number is kept, so that the instance is reproduced exactly: it
// must come after the number of the table's record before it and be from
// 1 to app.MaxExactInteger, far below SQLite's limit, since one number at
// the limit would leave AUTOINCREMENT no number for any later write. Into
// an instance in use the rows of a table follow its last row in the file's
// order, whatever numbers the file gives them.
func (t *Tx) importSeq(ctx context.Context, d *dumpTable, n int64) (int64, error) {
	if t.imp.created && (n < 1 || n > app.MaxExactInteger) {
		return 0, app.Errorf(app.CodeInvalid, "field \"seq\" of a %s record is %d, not from 1 to %d", d.kind, n, int64(app.MaxExactInteger))
	}
	last, ok := t.imp.seqs[d.table]
	if !ok {
		if err := t.tx.GetContext(ctx, &last, "SELECT coalesce(max(seq), 0) FROM "+d.table); err != nil {
			return 0, mapErr(err)
		}
	}
	switch {
	case !t.imp.created:
		n = last + 1
	case n <= last:
		return 0, app.Errorf(app.CodeInvalid, "field \"seq\" of a %s record is %d, not after the %d of the one before it", d.kind, n, last)
	}
	t.imp.seqs[d.table] = n
	return n, nil
}

// importTarget is the kind of record a reference must name, "" for any.
func (t *Tx) importTarget(rec *app.Record, d *dumpTable, c dumpCol) string {
	key := d.table + "." + c.name
	if kind, ok := t.imp.refs[key]; ok {
		return kind
	}
	kind := importUnkeyed[key]
	if col, ok := strings.CutPrefix(kind, "@"); ok {
		// The type columns hold the kinds of record by name; a name that is
		// no kind matches no row, and the reference is refused.
		return rec.Text(col)
	}
	return kind
}

// importErr names what a rejected row broke: a uniqueness rule is a
// conflict, any other rule of the schema makes the record invalid.
func importErr(kind string, err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &app.Error{Code: app.CodeConflict, Detail: fmt.Sprintf("a %s record repeats one already there (%s)", kind, constraintOf(se)), Err: err}
		case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL, sqlite3.SQLITE_CONSTRAINT_DATATYPE:
			return &app.Error{Code: app.CodeInvalid, Detail: fmt.Sprintf("a %s record breaks a rule of the schema (%s)", kind, constraintOf(se)), Err: err}
		}
	}
	return mapErr(err)
}

// constraintOf is the part of SQLite's message that names the rule, such
// as "CHECK constraint failed: importance BETWEEN 1 AND 5": it describes
// the file being read, never the server.
func constraintOf(se *sqlite.Error) string {
	msg := strings.TrimPrefix(se.Error(), "constraint failed: ")
	if i := strings.LastIndex(msg, " ("); i > 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

func describeValue(v any) string {
	switch v.(type) {
	case int64:
		return "a number"
	case string:
		return "a string"
	case app.JSONText:
		return "an object or array"
	case bool:
		return "true or false"
	}
	return fmt.Sprintf("%T", v)
}

// ImportRepointUser makes the accounts written so far that answer to old
// answer to now instead: an account the file names before the one it
// answers to, which turned out to be an account already here.
func (t *Tx) ImportRepointUser(ctx context.Context, old, now string) error {
	_, err := t.tx.ExecContext(ctx, "UPDATE users SET answers_to = ? WHERE answers_to = ?", now, old)
	return mapErr(err)
}

// ImportCheck finds a row the import wrote that refers to one that is not
// there, which the deferred foreign keys would otherwise refuse only at
// commit, without naming it.
func (t *Tx) ImportCheck(ctx context.Context) error {
	var r struct {
		Table  string        `db:"table"`
		RowID  sql.NullInt64 `db:"rowid"`
		Parent string        `db:"parent"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT "table", rowid, parent FROM pragma_foreign_key_check LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return mapErr(err)
	}
	what := r.Table
	if d := dumpTableFor(r.Table); d != nil {
		what = "a " + d.kind + " record"
		if _, ok := d.byName["id"]; ok && r.RowID.Valid {
			var id string
			if t.tx.GetContext(ctx, &id, "SELECT id FROM "+r.Table+" WHERE rowid = ?", r.RowID.Int64) == nil {
				what += " (id " + id + ")"
			}
		}
	}
	return app.Errorf(app.CodeInvalid, "%s refers to a row of %s that is neither in the file nor in this database", what, r.Parent)
}

func dumpTableFor(table string) *dumpTable {
	for _, d := range dumpTables {
		if d.table == table {
			return d
		}
	}
	return nil
}
