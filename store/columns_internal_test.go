package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"tend/app"
)

// schemaColumn is one column as PRAGMA table_info describes it.
type schemaColumn struct {
	name      string
	notNull   bool
	hasDflt   bool
	rowidPKey bool // INTEGER PRIMARY KEY: the database assigns it
}

func schemaColumns(t *testing.T, db *DB, table string) map[string]schemaColumn {
	t.Helper()
	rows, err := db.read.QueryContext(context.Background(), "SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk FROM pragma_table_info(?)", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]schemaColumn{}
	for rows.Next() {
		var c schemaColumn
		var typ string
		var pk int
		if err := rows.Scan(&c.name, &typ, &c.notNull, &c.hasDflt, &pk); err != nil {
			t.Fatal(err)
		}
		c.rowidPKey = pk == 1 && typ == "INTEGER"
		out[c.name] = c
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no table %s", table)
	}
	return out
}

// tableShape is what the schema test needs of an itemTable, whatever its T.
type tableShape struct {
	name    string
	modes   []colMode
	names   []string
	omitted map[string]string
}

func shapeOf[T any](tb *itemTable[T]) tableShape {
	s := tableShape{name: tb.name, omitted: tb.omitted, names: columnNames(tb.cols)}
	for _, c := range tb.cols {
		s.modes = append(s.modes, c.mode)
	}
	return s
}

// TestColumnTablesMatchSchema: every column of tasks, documents and
// projects is in its column table or left out with a reason, and the table
// names no column the schema lacks. Every NOT NULL column without a default
// is inserted, and each table is updated by its id, which the insert sets.
func TestColumnTablesMatchSchema(t *testing.T) {
	t.Parallel()
	db := openMigrated(t, "columns.db", Options{})
	for _, tb := range []tableShape{shapeOf(taskTable), shapeOf(documentTable), shapeOf(projectTable)} {
		t.Run(tb.name, func(t *testing.T) {
			schema := schemaColumns(t, db, tb.name)
			seen := map[string]bool{}
			for i, name := range tb.names {
				c, ok := schema[name]
				switch {
				case !ok:
					t.Errorf("the table lists %s, which %s does not have", name, tb.name)
				case seen[name]:
					t.Errorf("the table lists %s twice", name)
				case tb.omitted[name] != "":
					t.Errorf("%s is both in the table and left out", name)
				case c.notNull && !c.hasDflt && !c.rowidPKey && tb.modes[i] == readOnly:
					t.Errorf("%s is NOT NULL without a default, but no insert writes it", name)
				case c.rowidPKey && tb.modes[i] != readOnly:
					t.Errorf("%s is assigned by the database, but the table writes it", name)
				}
				seen[name] = true
			}
			for name, why := range tb.omitted {
				if _, ok := schema[name]; !ok {
					t.Errorf("%s is left out, but %s has no such column", name, tb.name)
				}
				if why == "" {
					t.Errorf("%s is left out without a reason", name)
				}
			}
			for name := range schema {
				if _, ok := tb.omitted[name]; !ok && !seen[name] {
					t.Errorf("%s.%s is neither in the column table nor left out with a reason", tb.name, name)
				}
			}
			if i := slices.Index(tb.names, "id"); i < 0 || tb.modes[i] != created {
				t.Error("the table has no id set by the insert alone, which the update finds the row by")
			}
		})
	}
}

// TestColumnsScanDistinctFields: each column a query reads, the table's own
// and the computed ones, scans into fields of its own, which no other
// column touches, and scanning NULL over a value leaves what scanning NULL
// into a fresh value does, since one value serves every row of a query. A
// column written with another's field would fail here.
func TestColumnsScanDistinctFields(t *testing.T) {
	t.Parallel()
	checkDistinct(t, "tasks", taskReader.cols)
	checkDistinct(t, "documents", documentReader.cols)
	checkDistinct(t, "project scopes", scopeReader.cols)
}

// samples are scanned into a column in turn until one changes its value:
// an integer, an instant, a JSON object, a JSON array (of reminders).
var samples = []any{int64(7<<32 + 3), "2026-01-02T03:04:05.678Z", `{"a":1}`, `[{"before":"5m"}]`}

func checkDistinct[T any](t *testing.T, what string, cols []column[T]) {
	t.Helper()
	owner := map[string]string{}
	for _, c := range cols {
		if _, ok := c.dest(new(T)).(skipDest); ok {
			continue
		}
		var v T
		var changed []string
		for _, s := range samples {
			if err := c.dest(&v).Scan(s); err == nil {
				if changed = changedFields(reflect.ValueOf(new(T)).Elem(), reflect.ValueOf(v), ""); len(changed) > 0 {
					break
				}
			}
		}
		if len(changed) == 0 {
			t.Errorf("%s: %s scans into no field", what, c.name)
			continue
		}
		for _, f := range changed {
			if other, ok := owner[f]; ok {
				t.Errorf("%s: %s and %s both scan into %s", what, other, c.name, f)
			}
			owner[f] = c.name
		}
		var fresh T
		if err := c.dest(&v).Scan(nil); err != nil {
			t.Errorf("%s: %s refuses NULL: %v", what, c.name, err)
		}
		if err := c.dest(&fresh).Scan(nil); err != nil {
			t.Errorf("%s: %s refuses NULL: %v", what, c.name, err)
		}
		if !reflect.DeepEqual(v, fresh) {
			t.Errorf("%s: %s leaves part of the last row's value after a NULL", what, c.name)
		}
	}
}

// changedFields lists the exported leaf fields of a struct in which v
// differs from zero, by path; an instant is a leaf.
func changedFields(zero, v reflect.Value, path string) []string {
	if v.Kind() != reflect.Struct || v.Type() == reflect.TypeFor[time.Time]() {
		if reflect.DeepEqual(zero.Interface(), v.Interface()) {
			return nil
		}
		return []string{path}
	}
	var out []string
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		out = append(out, changedFields(zero.Field(i), v.Field(i), fmt.Sprintf("%s.%s", path, v.Type().Field(i).Name))...)
	}
	return out
}

// TestTaskScanMatchesQuery: the task reader's columns are what the listing
// query selects, in its order, for every source and reader; Tasks checks it
// on every read, and this runs the check for the shapes no other test may
// reach.
func TestTaskScanMatchesQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openMigrated(t, "scan.db", Options{})
	for _, q := range []app.TaskQuery{
		{Limit: 50}, {Limit: 50, AllReadable: true}, {Limit: 50, Order: []app.OrderField{{Field: "priority_score"}}},
		{Limit: 50, ItemFilter: app.ItemFilter{Match: "x"}}, {Limit: 50, ItemFilter: app.ItemFilter{Match: "x"}, RankNewest: 10,
			Order: []app.OrderField{{Field: "relevance", Desc: true}}},
	} {
		q.WorkspaceID, q.Readable = "w", "[]"
		err := db.View(ctx, func(tx app.Tx) error {
			_, err := tx.Tasks(ctx, q)
			return err
		})
		if err != nil {
			t.Errorf("%+v: %v", q, err)
		}
	}
}
