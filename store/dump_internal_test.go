package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	"tend/app"
)

// TestDumpCoversSchema holds the export's layout to the migrated schema:
// every table and every column is either carried by an export (dumpTables)
// or named in dumpLeftOut with the reason, and nothing either names is
// missing from the schema. A migration that adds a column without saying
// what an export does with it fails here, not in a user's lost data.
func TestDumpCoversSchema(t *testing.T) {
	ctx := context.Background()
	db := openMigrated(t, "dump.db", Options{})
	var tables []string
	// FTS5's shadow tables go with the virtual table they belong to.
	if err := db.read.SelectContext(ctx, &tables, `SELECT name FROM sqlite_schema WHERE type = 'table'
		AND name NOT LIKE '%\_fts\_%' ESCAPE '\' ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, table := range tables {
		seen[table] = true
		if _, ok := dumpLeftOut[table]; ok {
			continue
		}
		d := dumpTableFor(table)
		if d == nil {
			t.Errorf("table %s is neither exported (store/dump.go dumpTables) nor left out with a reason (dumpLeftOut)", table)
			continue
		}
		have := schemaColumns(t, db, table)
		for name := range have {
			_, carried := d.byName[name]
			_, left := dumpLeftOut[table+"."+name]
			switch {
			case carried && left:
				t.Errorf("%s.%s is both exported and left out", table, name)
			case !carried && !left:
				t.Errorf("column %s.%s is neither exported nor left out with a reason", table, name)
			}
		}
		for _, c := range d.cols {
			if _, ok := have[c.name]; !ok {
				t.Errorf("the export's %s record names %s, which table %s does not have", d.kind, c.name, table)
			}
		}
	}
	for key := range dumpLeftOut {
		table, col, _ := strings.Cut(key, ".")
		if !seen[table] {
			t.Errorf("dumpLeftOut names %s, which is not a table", key)
		} else if col != "" {
			if _, ok := schemaColumns(t, db, table)[col]; !ok {
				t.Errorf("dumpLeftOut names %s, which is not a column", key)
			}
		}
	}
	var kinds []string
	for _, d := range dumpTables {
		if slices.Contains(kinds, d.kind) {
			t.Errorf("two tables export records of kind %s", d.kind)
		}
		kinds = append(kinds, d.kind)
	}
}

// TestImportKnowsEveryReference: every column of an export that refers to
// another row has a foreign key or an entry in importUnkeyed, so an import
// checks what kind of row of its file it names; and importUnkeyed names
// only such columns.
func TestImportKnowsEveryReference(t *testing.T) {
	ctx := context.Background()
	db := openMigrated(t, "refs.db", Options{})
	err := db.Update(ctx, func(atx app.Tx) error {
		refs, err := atx.(*Tx).foreignKeys(ctx)
		if err != nil {
			return err
		}
		for _, d := range dumpTables {
			for _, c := range d.cols {
				key := d.table + "." + c.name
				_, keyed := refs[key]
				_, unkeyed := importUnkeyed[key]
				isRef := c.kind == dID && c.name != "id"
				switch {
				case isRef && keyed == unkeyed:
					t.Errorf("%s: a reference needs a foreign key or an entry in importUnkeyed, not %v of them", key, map[bool]string{true: "both", false: "neither"}[keyed])
				case !isRef && unkeyed:
					t.Errorf("importUnkeyed names %s, which is no reference", key)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
