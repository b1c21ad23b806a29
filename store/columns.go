package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
)

// An item kind's table (tasks, documents, projects) is written down once,
// as a list of its columns: each names its column, says which statements
// write it, and says how its value travels between the column and the app's
// type. The select list, the scan, the insert and the update are built from
// that list, so a new column is one line of it (and its migration), and no
// statement's parameters can fall out of step with its columns: a
// statement's text and its arguments are made by one walk of the list, each
// value from the entry that names its column. TestColumnTablesMatchSchema
// holds each list to the migrated schema.
//
// The parameters are positional: bound by name (sql.Named and :name in the
// text), a task's insert took 149 allocations instead of 73, two more for
// each of its 36 values, for the same statement (BENCHMARKS.md, "Column
// tables").

// colMode says which statements write a column.
type colMode uint8

const (
	written  colMode = iota // inserted, and stored again by every update
	created                 // inserted, never updated: the row's identity and creation
	readOnly                // only read: the database assigns it, or a statement of its own writes it
)

// field is how one value travels between a column and a T.
type field[T any] struct {
	dest   func(*T) sql.Scanner // where a scan puts the column's value: a sql.Scanner into the T
	value  func(*T) any         // what a write stores
	settle func(*T)             // turns the value into what a read gives back (times to whole milliseconds); nil if it is already
	dump   dumpKind             // what an export says the column holds, as far as its type tells: text, a number, an instant
}

// column is one column a statement reads or writes. expr is what a select
// list reads for a column the query computes ("" for a column of the
// table itself).
type column[T any] struct {
	name string
	mode colMode
	field[T]
	expr string
}

// col is a column of the table itself.
func col[T any](name string, mode colMode, f field[T]) column[T] {
	return column[T]{name: name, mode: mode, field: f}
}

// exportedAs is c where an export says it holds what k says, which its
// type cannot tell: an id an import maps, an account, a JSON document.
func (c column[T]) exportedAs(k dumpKind) column[T] {
	c.dump = k
	return c
}

// computed is a column the listing query computes from expr: read, never
// written.
func computed[T any](name, expr string, f field[T]) column[T] {
	return column[T]{name: name, mode: readOnly, field: f, expr: expr}
}

// itemTable is one table's columns and the statements built from them.
type itemTable[T any] struct {
	name    string
	cols    []column[T]
	omitted map[string]string // columns the app neither reads nor writes, each with the reason
	insert  string            // INSERT of every written and created column
	update  string            // UPDATE of every written column, by id
	ins     []int             // the columns insert binds, in its order
	upd     []int             // the columns update binds, in its order: the written ones, then id
}

func newItemTable[T any](name string, cols []column[T], omitted map[string]string) *itemTable[T] {
	tb := &itemTable[T]{name: name, cols: cols, omitted: omitted}
	var names, marks, sets []string
	id := -1
	for i, c := range cols {
		if c.name == "id" {
			id = i
		}
		if c.mode == readOnly {
			continue
		}
		tb.ins, names, marks = append(tb.ins, i), append(names, c.name), append(marks, "?")
		if c.mode == written {
			tb.upd, sets = append(tb.upd, i), append(sets, c.name+" = ?")
		}
	}
	tb.upd = append(tb.upd, id)
	tb.insert = "INSERT INTO " + name + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	tb.update = "UPDATE " + name + " SET " + strings.Join(sets, ", ") + " WHERE id = ?"
	return tb
}

// maxArgs is how many values a table's statement binds at most without
// allocating their slice: the widest, a task's insert, binds 36.
const maxArgs = 48

// execInsert runs the table's insert for v.
func (tb *itemTable[T]) execInsert(ctx context.Context, t *Tx, v *T) (sql.Result, error) {
	var buf [maxArgs]any
	res, err := t.tx.ExecContext(ctx, tb.insert, tb.args(buf[:0], v, tb.ins)...)
	return res, mapErr(err)
}

// execUpdate runs the table's update for v.
func (tb *itemTable[T]) execUpdate(ctx context.Context, t *Tx, v *T) error {
	var buf [maxArgs]any
	_, err := t.tx.ExecContext(ctx, tb.update, tb.args(buf[:0], v, tb.upd)...)
	return mapErr(err)
}

// args appends the values of cols for v to buf. The callers' buffers stay
// on their stacks, since the statements do not keep their arguments.
func (tb *itemTable[T]) args(buf []any, v *T, cols []int) []any {
	for _, c := range cols {
		buf = append(buf, tb.cols[c].value(v))
	}
	return buf
}

// settle turns every value of v into what reading it back gives.
func (tb *itemTable[T]) settle(v *T) {
	for _, c := range tb.cols {
		if c.settle != nil {
			c.settle(v)
		}
	}
}

// selectList is the table's columns for a select list, each prefixed by
// alias and a dot.
func (tb *itemTable[T]) selectList(alias string) string {
	return selectList(alias, tb.cols)
}

// selectList is cols for a select list: a table's own columns prefixed by
// alias and a dot, a computed one as its expression AS its name.
func selectList[T any](alias string, cols []column[T]) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		if c.expr != "" {
			parts[i] = c.expr + " AS " + c.name
		} else {
			parts[i] = alias + "." + c.name
		}
	}
	return strings.Join(parts, ", ")
}

func columnNames[T any](cols []column[T]) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// within is cols read into the U that f finds inside a T: a row that
// holds a table's columns and more.
func within[T, U any](cols []column[U], f func(*T) *U) []column[T] {
	out := make([]column[T], len(cols))
	for i, c := range cols {
		out[i] = column[T]{name: c.name, mode: readOnly, expr: c.expr, field: field[T]{dest: func(v *T) sql.Scanner { return c.dest(f(v)) }}}
	}
	return out
}

// rowReader reads the rows of a query that selects cols, in their order,
// into Ts: one scan straight into the T, through destinations made once a
// query. A page scans some fifty rows of fifty columns; sqlx matched
// columns to fields by reflection on every query.
type rowReader[T any] struct {
	cols  []column[T]
	names []string
}

func newRowReader[T any](cols ...[]column[T]) rowReader[T] {
	all := slices.Concat(cols...)
	return rowReader[T]{cols: all, names: columnNames(all)}
}

// read runs query and reads its rows; size is how many it expects at most,
// the slice's first capacity, and finish, unless nil, completes each row
// once scanned.
func (r rowReader[T]) read(ctx context.Context, t *Tx, query string, args []any, size int, finish func(*T)) ([]T, error) {
	rs, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, mapErr(err)
	}
	if !slices.Equal(cols, r.names) {
		return nil, fmt.Errorf("query selects %v, scanned as %v", cols, r.names)
	}
	// One T's destinations serve every row: each scanner sets its field
	// whole, allocating anew what it points to, and the T is copied out.
	out := make([]T, 0, size)
	var v T
	dest := make([]any, len(r.cols))
	for i, c := range r.cols {
		dest[i] = c.dest(&v)
	}
	for rs.Next() {
		if err := rs.Scan(dest...); err != nil {
			return nil, mapErr(err)
		}
		out = append(out, v)
		if finish != nil {
			finish(&out[len(out)-1])
		}
	}
	return out, mapErr(rs.Err())
}

// The fields below cover the column types the item tables hold. A read
// takes NULL as the zero value (nil for a pointer), as sql.Null* did.

// text is a string column, stored as it is (NOT NULL).
func text[T any](f func(*T) *string) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return textDest{f(v)} }, value: func(v *T) any { return *f(v) }}
}

// nullText is a string column that stores "" as NULL.
func nullText[T any](f func(*T) *string) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return textDest{f(v)} }, value: func(v *T) any { return nullStr(*f(v)) }}
}

// integer is an int column, stored as it is.
func integer[T any](f func(*T) *int) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return intDest{f(v)} }, value: func(v *T) any { return int64(*f(v)) }, dump: dInt}
}

// nullZero is an int column that stores 0 as NULL: a count that starts at
// 1 when there is one.
func nullZero[T any](f func(*T) *int) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return intDest{f(v)} }, value: func(v *T) any { return nullInt(*f(v)) }, dump: dInt}
}

// integer64 is an int64 column, stored as it is.
func integer64[T any](f func(*T) *int64) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return int64Dest{f(v)} }, value: func(v *T) any { return *f(v) }, dump: dInt}
}

// optInt is a nullable int column: nil is NULL.
func optInt[T any](f func(*T) **int) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return intPtrDest{f(v)} }, value: func(v *T) any {
		if p := *f(v); p != nil {
			return int64(*p)
		}
		return nil
	}, dump: dInt}
}

// flag is a 0-or-1 column.
func flag[T any](f func(*T) *bool) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return boolDest{f(v)} }, value: func(v *T) any { return *f(v) }, dump: dInt}
}

// stamp is an instant column (NOT NULL), stored in timeLayout.
func stamp[T any](f func(*T) *time.Time) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return timeDest{f(v)} }, value: func(v *T) any { return fmtTime(*f(v)) },
		settle: func(v *T) { p := f(v); *p = parseTime(fmtTime(*p)) }, dump: dTime}
}

// optStamp is a nullable instant column: nil is NULL.
func optStamp[T any](f func(*T) **time.Time) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return timePtrDest{f(v)} }, value: func(v *T) any { return fmtTimePtr(*f(v)) },
		settle: func(v *T) {
			if p := f(v); *p != nil {
				s := parseTime(fmtTime(**p))
				*p = &s
			}
		}, dump: dTime}
}

// The computed columns are only read.

// optInt64 reads a nullable int64.
func optInt64[T any](f func(*T) **int64) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return int64PtrDest{f(v)} }}
}

// number reads a number, NULL as 0.
func number[T any](f func(*T) *float64) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return floatDest{f(v)} }}
}

// optNumber reads a nullable number.
func optNumber[T any](f func(*T) **float64) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return floatPtrDest{f(v)} }}
}

// nameList reads a list of names joined by char(31), NULL or "" as an empty
// list, put in order by sorted unless nil.
func nameList[T any](f func(*T) *[]string, sorted func([]string)) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return namesDest{f(v), sorted} }}
}

// skipped reads a column only the query itself uses, and drops it.
func skipped[T any]() field[T] {
	return field[T]{dest: func(*T) sql.Scanner { return skipDest{} }}
}

// The destinations are one pointer each where they can be, which an
// interface holds without allocating.

type skipDest struct{}

func (skipDest) Scan(any) error { return nil }

type textDest struct{ p *string }

func (d textDest) Scan(src any) error {
	switch s := src.(type) {
	case string:
		*d.p = s
	case []byte:
		*d.p = string(s)
	case nil:
		*d.p = ""
	default:
		return fmt.Errorf("text from %T", src)
	}
	return nil
}

func scanInt(src any) (int64, bool, error) {
	switch n := src.(type) {
	case int64:
		return n, true, nil
	case nil:
		return 0, false, nil
	case bool:
		if n {
			return 1, true, nil
		}
		return 0, true, nil
	}
	return 0, false, fmt.Errorf("integer from %T", src)
}

type intDest struct{ p *int }

func (d intDest) Scan(src any) error {
	n, _, err := scanInt(src)
	*d.p = int(n)
	return err
}

type int64Dest struct{ p *int64 }

func (d int64Dest) Scan(src any) (err error) {
	*d.p, _, err = scanInt(src)
	return err
}

type intPtrDest struct{ p **int }

func (d intPtrDest) Scan(src any) error {
	n, ok, err := scanInt(src)
	*d.p = nil
	if ok {
		v := int(n)
		*d.p = &v
	}
	return err
}

type int64PtrDest struct{ p **int64 }

func (d int64PtrDest) Scan(src any) error {
	n, ok, err := scanInt(src)
	*d.p = nil
	if ok {
		*d.p = &n
	}
	return err
}

type boolDest struct{ p *bool }

func (d boolDest) Scan(src any) error {
	n, _, err := scanInt(src)
	*d.p = n != 0
	return err
}

type floatDest struct{ p *float64 }

func (d floatDest) Scan(src any) error {
	switch f := src.(type) {
	case float64:
		*d.p = f
	case int64:
		*d.p = float64(f)
	case nil:
		*d.p = 0
	default:
		return fmt.Errorf("number from %T", src)
	}
	return nil
}

type floatPtrDest struct{ p **float64 }

func (d floatPtrDest) Scan(src any) error {
	*d.p = nil
	if src == nil {
		return nil
	}
	var f float64
	if err := (floatDest{&f}).Scan(src); err != nil {
		return err
	}
	*d.p = &f
	return nil
}

type timeDest struct{ p *time.Time }

func (d timeDest) Scan(src any) error {
	var s string
	if err := (textDest{&s}).Scan(src); err != nil {
		return err
	}
	*d.p = parseTime(s)
	return nil
}

type timePtrDest struct{ p **time.Time }

func (d timePtrDest) Scan(src any) error {
	*d.p = nil
	if src == nil {
		return nil
	}
	var t time.Time
	if err := (timeDest{&t}).Scan(src); err != nil {
		return err
	}
	*d.p = &t
	return nil
}

type namesDest struct {
	p      *[]string
	sorted func([]string)
}

func (d namesDest) Scan(src any) error {
	var s string
	if err := (textDest{&s}).Scan(src); err != nil {
		return err
	}
	*d.p = []string{}
	if s != "" {
		*d.p = strings.Split(s, "\x1f")
		if d.sorted != nil {
			d.sorted(*d.p)
		}
	}
	return nil
}
